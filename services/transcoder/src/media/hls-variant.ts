import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { parseMediaPlaylist } from '@platform/storage';
import { buildSegmentProbeArgs } from './ffmpeg-args';
import { frameRateOf } from './interpret-probe';
import { FfprobeOutput } from './probe.types';
import { checkDecoded, checkSegments, RenditionError } from './rendition-check';
import { codecsOf, measureBandwidth, MediaProcessError, MediaRunner, RunOptions, VariantStream } from '@platform/media';

export type KnownVariantFields = Pick<VariantStream, 'width' | 'height' | 'frameRate' | 'codecs'>;

/** What a variant must be to be listed: how long (seconds; 0 when unknown), and whether it has video. */
export interface VariantExpectation {
  seconds: number;
  video: boolean;
}

/**
 * Reads a finished variant folder (`index.m3u8` and its segments) into its master-playlist entry,
 * after checking it is playable (`rendition-check.ts`; a RenditionError otherwise): bandwidth measured
 * from the segment files, size, frame rate and codecs from ffprobe's reading of the first segment (the
 * same for the remuxed source and the encoded ladder, whatever ffmpeg wrote), which also decodes its
 * first packets. When ffprobe crashes on the segment (the npm-shipped static ffprobe does on every
 * MPEG-TS file), the `known` fields stand in and the decode goes unchecked.
 */
export async function describeVariant(
  runner: MediaRunner,
  folder: string,
  uri: string,
  expected: VariantExpectation,
  known: KnownVariantFields = {},
  options: RunOptions = {},
): Promise<VariantStream> {
  const segments = parseMediaPlaylist(await readFile(join(folder, 'index.m3u8'), 'utf8'));
  const sized = await Promise.all(
    segments.map(async (s) => ({ uri: s.uri, duration: s.duration, bytes: (await stat(join(folder, s.uri)).catch(() => ({ size: 0 }))).size })),
  );
  checkSegments(uri, sized, expected.seconds);
  const { peak, average } = measureBandwidth(sized);
  const measured = { uri, bandwidth: peak, ...(average ? { averageBandwidth: average } : {}) };
  let probe: FfprobeOutput;
  try {
    probe = await runner.probeJson<FfprobeOutput>(buildSegmentProbeArgs(join(folder, segments[0].uri)), options);
  } catch (err) {
    if (!(err instanceof MediaProcessError)) throw err;
    if (err.exitCode !== null && err.exitCode !== 0) throw new RenditionError(uri, `its first segment cannot be read (${err.message})`);
    return { ...measured, ...known };
  }
  checkDecoded(uri, probe, expected.video);
  const streams = probe.streams ?? [];
  const video = streams.find((s) => s.codec_type === 'video');
  const frameRate = video ? frameRateOf(video) : -1;
  const codecs = codecsOf(streams);
  return {
    ...measured,
    ...(video?.width && video.height ? { width: video.width, height: video.height } : {}),
    ...(frameRate > 0 && frameRate <= 240 ? { frameRate } : {}),
    ...(codecs ? { codecs } : {}),
  };
}
