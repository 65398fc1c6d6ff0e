import { buildKeyframeProbeArgs, buildProbeArgs } from '../media/ffmpeg-args';
import { KeyframeRows, PacketLineReader } from '../media/keyframes';
import { FfprobeOutput, KeyframeSummary } from '../media/probe.types';
import { InputError } from './job-context';
import { MediaProcessError, MediaRunner, RunOptions } from '@platform/media';

export const UNREADABLE_INPUT = 'The input file could not be read as media.';
/** Signals of a demuxer crashing on the file (not of the machine killing ffprobe). */
const CRASH_SIGNALS: ReadonlyArray<string | null> = ['SIGSEGV', 'SIGBUS', 'SIGABRT', 'SIGFPE', 'SIGILL'];

/**
 * ffprobe's reading of the input. A file ffprobe refuses or crashes on is an InputError, and so is one
 * it reads only as a still image or as text (`png_pipe`, `image2`, `tty`…): not a media file.
 */
export async function probeInput(runner: MediaRunner, input: string, options: RunOptions): Promise<FfprobeOutput> {
  let probe: FfprobeOutput;
  try {
    probe = await runner.probeJson<FfprobeOutput>(buildProbeArgs(input), options);
  } catch (err) {
    // A non-zero status or a crash is ffprobe's verdict on the file; a failed start or a kill is ours.
    if (err instanceof MediaProcessError && (err.exitCode !== null || CRASH_SIGNALS.includes(err.signal))) {
      throw new InputError([UNREADABLE_INPUT]);
    }
    throw err;
  }
  if (isStillOrText(probe.format?.format_name)) throw new InputError([UNREADABLE_INPUT]);
  return probe;
}

function isStillOrText(formatName: string | undefined): boolean {
  return formatName !== undefined && (formatName === 'tty' || formatName === 'image2' || formatName.endsWith('_pipe'));
}

/**
 * Key-frame intervals of the first video stream from a packet scan (one demux pass, streamed), for
 * the GOP-size and GOP-bitrate rules. Undefined when the scan fails: those two rules are then unchecked.
 */
export async function scanKeyframes(runner: MediaRunner, input: string, options: RunOptions): Promise<KeyframeSummary | undefined> {
  const rows = new KeyframeRows();
  const reader = new PacketLineReader(rows);
  try {
    await runner.probeLines(buildKeyframeProbeArgs(input), (line) => reader.push(line), options);
  } catch (err) {
    if (err instanceof MediaProcessError) return undefined;
    throw err;
  }
  return rows.summarize();
}
