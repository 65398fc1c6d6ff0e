/**
 * `normalize_audio`: two-pass EBU R128 loudness normalization with ffmpeg's loudnorm. The first pass
 * measures the whole input (`buildLoudnessMeasureArgs`, `parseLoudnormMeasurement`); the second applies
 * the measured values in linear mode (`loudnormFilter`), a constant gain, inside every encode.
 */

/** EBU R128: programme loudness -23 LUFS, maximum true peak -1 dBTP. */
export const LOUDNESS_TARGET = { integrated: -23, truePeak: -1, range: 11 } as const;
/** loudnorm resamples to 192 kHz; the output goes back to this rate when the input's is unknown. */
export const DEFAULT_SAMPLE_RATE = 48_000;

export interface LoudnessMeasurement {
  /** Integrated loudness, LUFS. */
  integrated: number;
  /** True peak, dBTP. */
  truePeak: number;
  /** Loudness range, LU. */
  range: number;
  /** Gating threshold of the integrated loudness, LUFS. */
  threshold: number;
  /** loudnorm's own correction for its second pass, LU. */
  targetOffset: number;
}

export interface LoudnessMeasureOptions {
  /** Test assets: only the first seconds are published, so only they are measured. */
  maxSeconds?: number;
  /** Channels of the encoded audio (the ladder's stereo AAC): measured after the same down/up-mix. */
  channels?: number;
}

/** The stereo (or mono) layout every encode uses, so what is measured is what is heard. */
function layoutFilter(channels: number): string {
  return `aformat=channel_layouts=${channels === 1 ? 'mono' : 'stereo'}`;
}

/** The first pass: the first audio stream through loudnorm, nothing written; the figures go to stderr as JSON. */
export function buildLoudnessMeasureArgs(input: string, options: LoudnessMeasureOptions = {}): string[] {
  const { integrated, truePeak, range } = LOUDNESS_TARGET;
  const args = ['-hide_banner', '-nostdin', '-nostats'];
  if (options.maxSeconds !== undefined) args.push('-t', String(options.maxSeconds));
  args.push(
    '-i',
    input,
    '-map',
    '0:a:0',
    '-af',
    `${layoutFilter(options.channels ?? 2)},loudnorm=I=${integrated}:TP=${truePeak}:LRA=${range}:print_format=json`,
    '-f',
    'null',
    '-',
  );
  return args;
}

/**
 * The JSON block loudnorm prints when the first pass ends. Undefined when the audio is silent (every block
 * below the -70 LUFS gate: integrated loudness `-inf`), where there is nothing to normalize.
 */
export function parseLoudnormMeasurement(stderr: string): LoudnessMeasurement | undefined {
  const start = stderr.lastIndexOf('[Parsed_loudnorm');
  const open = stderr.indexOf('{', start);
  const close = stderr.indexOf('}', open);
  if (start < 0 || open < 0 || close < 0) throw new Error('loudnorm printed no measurement');
  const json = JSON.parse(stderr.slice(open, close + 1)) as Record<string, string>;
  const figure = (key: string): number => {
    const text = String(json[key]).trim();
    const value = /^[+-]?inf$/.test(text) ? (text.startsWith('-') ? -Infinity : Infinity) : Number(text);
    if (Number.isNaN(value)) throw new Error(`loudnorm measurement has no ${key}`);
    return value;
  };
  const integrated = figure('input_i');
  if (!Number.isFinite(integrated)) return undefined;
  return {
    integrated,
    truePeak: figure('input_tp'),
    range: figure('input_lra'),
    threshold: figure('input_thresh'),
    targetOffset: figure('target_offset'),
  };
}

export interface LoudnormFilterOptions {
  /** Sample rate to return to after loudnorm's 192 kHz. */
  sampleRate?: number;
  channels?: number;
}

/**
 * The second pass: loudnorm fed the first pass's figures in linear mode, which applies one gain to the
 * whole programme when the measured true peak plus that gain stays under the ceiling (otherwise loudnorm
 * falls back to its dynamic mode, which still reaches the target). The loudness-range target is raised to
 * the measured range so the range alone never rules linear mode out, and a range of exactly 0 (a steady
 * tone) is given as 0.01 because loudnorm reads 0 as "not measured". Values are clamped into loudnorm's
 * option ranges.
 */
export function loudnormFilter(m: LoudnessMeasurement, options: LoudnormFilterOptions = {}): string {
  const { integrated, truePeak, range } = LOUDNESS_TARGET;
  const targetRange = Math.min(50, Math.max(range, Math.ceil(m.range)));
  const loudnorm = [
    `I=${integrated}`,
    `TP=${truePeak}`,
    `LRA=${targetRange}`,
    `measured_I=${fixed(clamp(m.integrated, -99, 0))}`,
    `measured_TP=${fixed(clamp(m.truePeak, -99, 99))}`,
    `measured_LRA=${fixed(clamp(m.range, 0.01, 99))}`,
    `measured_thresh=${fixed(clamp(m.threshold, -99, 0))}`,
    `offset=${fixed(clamp(m.targetOffset, -99, 99))}`,
    'linear=true',
    'print_format=none',
  ].join(':');
  return `${layoutFilter(options.channels ?? 2)},loudnorm=${loudnorm},aresample=${options.sampleRate ?? DEFAULT_SAMPLE_RATE}`;
}

/** AAC's usual rates are kept; anything else (or unknown) becomes 48 kHz. */
export function outputSampleRate(inputRate: string | number | undefined): number {
  const rate = Number(inputRate);
  return [44_100, 48_000].includes(rate) ? rate : DEFAULT_SAMPLE_RATE;
}

function clamp(value: number, min: number, max: number): number {
  if (Number.isNaN(value)) return min;
  return Math.min(max, Math.max(min, value));
}

function fixed(value: number): string {
  return value.toFixed(2);
}
