import { execFile } from 'node:child_process';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { live } from '@platform/proto';

const run = promisify(execFile);

/** An `embedded_subtitles` entry with its defaults applied (spec 2.3). */
export interface CaptionChannel {
  name: string;
  languageCode: string;
  /** `cc1` … `cc4`. */
  channel: string;
  passthrough?: string;
}

export function captionChannels(entries: readonly live.EmbeddedSubtitle[]): CaptionChannel[] {
  return entries.map((e) => {
    const languageCode = e.language_code || 'en';
    return {
      name: e.name || `${languageCode} CC`,
      languageCode,
      channel: (e.language_channel || 'cc1').toLowerCase(),
      ...(e.passthrough ? { passthrough: e.passthrough } : {}),
    };
  });
}

/** A value for a quoted HLS attribute (which cannot hold a double quote). */
export const quoted = (value: string) => value.replace(/"/g, "'");

/**
 * The master playlist's CLOSED-CAPTIONS renditions: the captions travel inside the video (CEA-608,
 * stream-copied from the encoder), so players render them in-band from the channel named here.
 */
export function closedCaptionMedia(channels: readonly CaptionChannel[]): string[] {
  return channels.map(
    (c, i) =>
      `#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="${quoted(c.name)}",LANGUAGE="${quoted(c.languageCode)}",${i === 0 ? 'DEFAULT=YES,' : ''}AUTOSELECT=YES,INSTREAM-ID="${c.channel.toUpperCase()}"`,
  );
}

/**
 * ffmpeg arguments that read the CEA-608 captions of a channel's field out of the video of the
 * segments listed in `list` (a concat file) as WebVTT, timed from the first segment's start.
 * ffmpeg's decoder picks the field (cc1/cc2: first, cc3/cc4: second) and decodes its first channel.
 */
export function captionExtractionArgs(list: string, channel: string): string[] {
  const field = channel === 'cc3' || channel === 'cc4' ? 'second' : 'first';
  return ['-v', 'error', '-data_field', field, '-f', 'lavfi', '-i', `movie=${list}:f=concat[out0+subcc]`, '-map', '0:1', '-c:s', 'webvtt', '-f', 'webvtt', '-'];
}

/** Whether a WebVTT document has at least one cue. */
export const hasCues = (vtt: string): boolean => vtt.includes('-->');

/**
 * The captions of `segments` (files in `dir`, in playback order) for each channel, as WebVTT;
 * a channel whose captions cannot be read or has none is left out.
 */
export async function extractCaptions(
  ffmpegPath: string,
  dir: string,
  segments: readonly string[],
  channels: readonly CaptionChannel[],
): Promise<Array<{ channel: CaptionChannel; vtt: string }>> {
  if (channels.length === 0 || segments.length === 0) return [];
  const list = path.join(dir, 'captions-concat.txt');
  await fsp.writeFile(list, segments.map((s) => `file '${s.replace(/'/g, "'\\''")}'`).join('\n'));
  const found: Array<{ channel: CaptionChannel; vtt: string }> = [];
  for (const channel of channels) {
    try {
      // movie= resolves the list relative to the working directory, so run in `dir`
      const { stdout } = await run(ffmpegPath, captionExtractionArgs('captions-concat.txt', channel.channel), { cwd: dir, maxBuffer: 32 * 1024 * 1024 });
      if (hasCues(stdout)) found.push({ channel, vtt: stdout });
    } catch {
      // no caption stream in the video: nothing to extract
    }
  }
  return found;
}

/** extractCaptions, with what fails told to `warn` (the recording then has no caption tracks). */
export function readCaptions(
  tools: { ffmpegPath: string; warn(message: string): void },
  workDir: string,
  segments: string[],
  channels: readonly CaptionChannel[],
): Promise<Array<{ channel: CaptionChannel; vtt: string }>> {
  return extractCaptions(tools.ffmpegPath, workDir, segments, channels).catch((err: unknown) => {
    tools.warn(`reading captions: ${err instanceof Error ? err.message : String(err)}`);
    return [];
  });
}
