import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { FfprobeOutput, FfprobeStream } from '@platform/media';
import { SourceMedia } from './packager-inputs';

const run = promisify(execFile);
/** The longest an encoder's stream is read before its span starts without a probe. */
const SOURCE_PROBE_MS = 4000;

/** What the recording keeps of its media: the first segment's size, frame rate, channels and start. */
export interface MediaFacts {
  video?: { width: number; height: number; frameRate?: number };
  audio?: { channels: number };
  /** Presentation time of the first packet (seconds): where a segmented subtitle track's timestamp map points. */
  startTime?: number;
}

const frameRateOf = (stream: FfprobeStream): number | undefined => {
  const [num, den] = (stream.avg_frame_rate ?? stream.r_frame_rate ?? '0/1').split('/').map(Number);
  return num && den ? Math.round((num / den) * 1000) / 1000 : undefined;
};

/** The facts of ffprobe's reading (pure). */
export function mediaFactsOf(probe: FfprobeOutput): MediaFacts {
  const streams = probe.streams ?? [];
  const v = streams.find((s) => s.codec_type === 'video');
  const a = streams.find((s) => s.codec_type === 'audio');
  const facts: MediaFacts = {};
  if (v) {
    const frameRate = frameRateOf(v);
    facts.video = { width: Number(v.width), height: Number(v.height), ...(frameRate ? { frameRate } : {}) };
  }
  if (a) facts.audio = { channels: Number(a.channels) };
  const startTime = Number.parseFloat(probe.format?.start_time ?? '');
  if (Number.isFinite(startTime)) facts.startTime = startTime;
  return facts;
}

/** An encoder's codecs and size (pure): what decides copy or encode, and the ladder's rungs. */
export function sourceMediaOf(probe: FfprobeOutput): SourceMedia {
  const streams = probe.streams ?? [];
  const v = streams.find((s) => s.codec_type === 'video' && s.disposition?.attached_pic !== 1);
  const a = streams.find((s) => s.codec_type === 'audio');
  return {
    ...(v && v.width && v.height ? { video: { codec: v.codec_name ?? '', width: v.width, height: v.height } } : {}),
    ...(a ? { audio: { codec: a.codec_name ?? '', channels: a.channels ?? 2 } } : {}),
  };
}

/** What ffprobe sees in a file (empty when it cannot read it: the recording still plays, its tracks unknown). */
export async function probeMedia(ffprobePath: string, file: string): Promise<MediaFacts> {
  try {
    const { stdout } = await run(ffprobePath, ['-v', 'error', '-show_streams', '-show_format', '-of', 'json', file]);
    return mediaFactsOf(JSON.parse(stdout) as FfprobeOutput);
  } catch {
    return {};
  }
}

/**
 * An encoder's stream as ffprobe reads it from the local RTMP server (the pull alias), within
 * SOURCE_PROBE_MS; undefined when it could not tell (the span then copies what comes).
 */
export async function probeSource(ffprobePath: string, url: string): Promise<SourceMedia | undefined> {
  try {
    // half a second of media is enough for the codecs and size (the sequence headers come first); ffprobe's default reads 5 s
    const { stdout } = await run(
      ffprobePath,
      ['-v', 'error', '-rw_timeout', '3000000', '-analyzeduration', '500000', '-probesize', '1000000', '-show_streams', '-of', 'json', url],
      {
        timeout: SOURCE_PROBE_MS,
      },
    );
    return sourceMediaOf(JSON.parse(stdout) as FfprobeOutput);
  } catch {
    return undefined;
  }
}
