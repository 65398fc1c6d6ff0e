import { TEST_ASSET_SECONDS } from '../media/ffmpeg-args';
import { buildLoudnessMeasureArgs, LOUDNESS_TARGET, LoudnessMeasurement, loudnormFilter, outputSampleRate, parseLoudnormMeasurement } from '../media/loudness';
import { FfprobeOutput } from '../media/probe.types';
import { MediaRunner, RunOptions } from '@platform/media';

export interface AudioNormalization {
  /** The second pass, for `-af` or a filtergraph; undefined: nothing to normalize (silence). */
  filter?: string;
  measured?: LoudnessMeasurement;
}

/**
 * `normalize_audio`'s first pass over the input's first audio stream (a test asset's first 10 s), and the
 * second-pass filter built from it. Both phases measure: the figures are the same each time, and a
 * measurement is a small part of an encode.
 */
export async function measureAudioNormalization(
  runner: MediaRunner,
  input: string,
  probe: FfprobeOutput,
  options: RunOptions & { test: boolean },
): Promise<AudioNormalization> {
  const args = buildLoudnessMeasureArgs(input, options.test ? { maxSeconds: TEST_ASSET_SECONDS } : {});
  const measured = parseLoudnormMeasurement(await runner.ffmpegLog(args, options));
  if (!measured) return {};
  const audio = probe.streams?.find((s) => s.codec_type === 'audio');
  return { measured, filter: loudnormFilter(measured, { sampleRate: outputSampleRate(audio?.sample_rate) }) };
}

/** For the logs: `-51.8 LUFS (true peak -50.3 dBTP) → -23 LUFS`. */
export function describeNormalization(n: AudioNormalization): string {
  if (!n.measured) return 'silent: not normalized';
  return `${n.measured.integrated.toFixed(1)} LUFS (true peak ${n.measured.truePeak.toFixed(1)} dBTP) → ${LOUDNESS_TARGET.integrated} LUFS`;
}
