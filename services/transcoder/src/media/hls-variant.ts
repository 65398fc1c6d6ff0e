import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { buildSegmentProbeArgs } from './ffmpeg-args';
import { frameRateOf } from './interpret-probe';
import { codecsOf, measureBandwidth, parseMediaPlaylist, VariantStream } from './master-playlist';
import { MediaProcessError } from './media-errors';
import { MediaRunner, RunOptions } from './media-runner';
import { FfprobeOutput } from './probe.types';

export type KnownVariantFields = Pick<VariantStream, 'width' | 'height' | 'frameRate' | 'codecs'>;

/**
 * Reads a finished variant folder (`index.m3u8` and its segments) into its master-playlist entry:
 * bandwidth measured from the segment files, size, frame rate and codecs from ffprobe's reading of the
 * first segment (the same for the remuxed source and the encoded ladder, whatever ffmpeg wrote). When
 * ffprobe cannot read the segment (the npm-shipped static ffprobe crashes on every MPEG-TS file), the
 * `known` fields stand in.
 */
export async function describeVariant(
  runner: MediaRunner,
  folder: string,
  uri: string,
  known: KnownVariantFields = {},
  options: RunOptions = {},
): Promise<VariantStream> {
  const segments = parseMediaPlaylist(await readFile(join(folder, 'index.m3u8'), 'utf8'));
  if (segments.length === 0) throw new Error(`${uri} lists no segments`);
  const sized = await Promise.all(segments.map(async (s) => ({ duration: s.duration, bytes: (await stat(join(folder, s.uri))).size })));
  const { peak, average } = measureBandwidth(sized);
  const measured = { uri, bandwidth: Math.max(peak, 1), ...(average ? { averageBandwidth: average } : {}) };
  let probe: FfprobeOutput;
  try {
    probe = await runner.probeJson<FfprobeOutput>(buildSegmentProbeArgs(join(folder, segments[0].uri)), options);
  } catch (err) {
    if (err instanceof MediaProcessError) return { ...measured, ...known };
    throw err;
  }
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
