import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { assets } from '@platform/proto';
import { assetKeys, masterVariantUris, ObjectNotFoundError, ObjectStore, parseMediaPlaylist, PlaylistSegment } from '@platform/storage';
import { buildClipPacketArgs, buildClipStreamsArgs, concatInput } from '../media/clip-args';
import { chooseSegments, SpanChoice, SpanMedia, TS_CLOCK, VideoFacts, VideoPacket } from '../media/clip-plan';
import { InputError } from './job-context';
import { SOURCE_VARIANT } from './source-variant';
import { MediaRunner, RunOptions } from '@platform/media';

/** The stored rendition a clip is cut from: its folder under `assets/{id}/hls/` and its segments. */
export interface SourceRendition {
  /** e.g. `source`, `1080p`, `live`. */
  variant: string;
  segments: PlaylistSegment[];
}

/** The fetched segments of each span, in order, with what the probe read from them. */
export interface FetchedSpans {
  spans: SpanMedia[];
  /** Local file of each fetched segment, by playlist index. */
  files: Map<number, string>;
  video?: VideoFacts;
  hasAudio: boolean;
}

interface ProbedStream {
  index: number;
  codec_type?: string;
  codec_name?: string;
  profile?: string;
  pix_fmt?: string;
  field_order?: string;
  start_time?: string;
}

/**
 * Where a clip's media comes from: the source asset's stored HLS. A standard input's stream-copied
 * `source` rendition (the original quality, kept after the ladder) when there is one; otherwise the
 * first variant of its master playlist, which is the top of its ladder or, for a live stream's
 * recording, the whole-recording playlist (`live/`, growing while the stream is live).
 */
export async function findSourceRendition(store: ObjectStore, clip: assets.IngestClip): Promise<SourceRendition> {
  const id = clip.source_asset_id;
  const read = async (path: string) => (await store.getBuffer(assetKeys.hls(id, path))).toString('utf8');
  try {
    const source = await read(`${SOURCE_VARIANT}/index.m3u8`).catch((err: unknown) => {
      if (err instanceof ObjectNotFoundError) return undefined;
      throw err;
    });
    if (source !== undefined) return { variant: SOURCE_VARIANT, segments: parseMediaPlaylist(source) };
    const [uri] = masterVariantUris(await read('master.m3u8'));
    if (!uri?.endsWith('/index.m3u8')) throw new InputError([`The source asset ${id} has no stored rendition to clip.`]);
    const variant = uri.slice(0, -'/index.m3u8'.length);
    return { variant, segments: parseMediaPlaylist(await read(uri)) };
  } catch (err) {
    if (err instanceof ObjectNotFoundError) throw new InputError([`The source asset ${id} has no stored media to clip (it was deleted, or is being deleted).`]);
    throw err;
  }
}

/** Fetches the segments the cut needs (in parallel) into `dir`, and probes each span once (streams and every packet). */
export async function fetchSpans(
  store: ObjectStore,
  runner: MediaRunner,
  clip: assets.IngestClip,
  rendition: SourceRendition,
  dir: string,
  run: RunOptions,
): Promise<FetchedSpans> {
  const choices = chooseSegments(rendition.segments, clip.start_time, clip.end_time);
  if (choices.length === 0)
    throw new InputError([`The source asset ${clip.source_asset_id} holds no media between ${clip.start_time} s and ${clip.end_time} s.`]);
  const files = new Map<number, string>();
  await Promise.all(
    choices
      .flatMap((c) => c.segments)
      .map(async (index) => {
        const file = join(dir, `segment-${index}.ts`);
        const key = assetKeys.hls(clip.source_asset_id, `${rendition.variant}/${rendition.segments[index].uri}`);
        try {
          await store.getFile(key, file);
        } catch (err) {
          if (err instanceof ObjectNotFoundError) throw new InputError([`A segment of the source asset ${clip.source_asset_id} is missing from storage.`]);
          throw err;
        }
        files.set(index, file);
      }),
  );
  const probed = await Promise.all(choices.map((choice) => probeSpan(runner, choice, files, run)));
  const [first] = probed;
  return { spans: probed.map((p) => p.span), files, video: first.video, hasAudio: first.hasAudio };
}

async function probeSpan(
  runner: MediaRunner,
  choice: SpanChoice,
  files: Map<number, string>,
  run: RunOptions,
): Promise<{ span: SpanMedia; video?: VideoFacts; hasAudio: boolean }> {
  const paths = choice.segments.map((i) => files.get(i)!);
  const segmentAt = await segmentByteOffsets(choice.segments, paths);
  const packets: VideoPacket[] = [];
  // side by side: the first segment's streams, and the span's video packets (none for audio-only media)
  const [{ streams = [] }] = await Promise.all([
    runner.probeJson<{ streams?: ProbedStream[] }>(buildClipStreamsArgs(paths[0]), run),
    runner.probeLines(
      buildClipPacketArgs(concatInput(paths)),
      (line) => {
        const packet = parsePacketLine(line, segmentAt);
        if (packet) packets.push(packet);
      },
      run,
    ),
  ]);
  const video = streams.find((s) => s.codec_type === 'video');
  const audio = streams.find((s) => s.codec_type === 'audio');
  const first = packets.find((p) => p.segment === choice.segments[0]);
  const audioStart = Number.parseFloat(audio?.start_time ?? '');
  const anchorPts = video ? first?.pts : Number.isFinite(audioStart) ? Math.round(audioStart * TS_CLOCK) : undefined;
  if (anchorPts === undefined) throw new InputError(['The source asset’s stored media could not be read (no frames where its playlist lists them).']);
  return {
    span: { ...choice, video: packets, anchorPts },
    video: video ? { codec: video.codec_name ?? 'unknown', profile: video.profile, pixFmt: video.pix_fmt, fieldOrder: video.field_order } : undefined,
    hasAudio: audio !== undefined,
  };
}

/** A `packet|pts=…|dts=…|pos=…|flags=…` line; undefined for other lines and packets without timestamps. */
export function parsePacketLine(line: string, segmentAt: (pos: number) => number): VideoPacket | undefined {
  if (!line.startsWith('packet|')) return undefined;
  const fields = new Map(
    line
      .split('|')
      .slice(1)
      .map((kv) => kv.split('=') as [string, string]),
  );
  const pts = Number(fields.get('pts'));
  const dts = Number(fields.get('dts'));
  if (!Number.isFinite(pts) || !Number.isFinite(dts)) return undefined;
  return { pts, dts, key: (fields.get('flags') ?? '').includes('K'), segment: segmentAt(Number(fields.get('pos'))) };
}

/** Which segment a byte position of the concatenated span falls in (a packet's `pos` is where its first TS packet starts). */
async function segmentByteOffsets(segments: number[], paths: string[]): Promise<(pos: number) => number> {
  const sizes = await Promise.all(paths.map(async (p) => (await stat(p)).size));
  const ends: number[] = [];
  sizes.reduce((sum, size) => (ends.push(sum + size), sum + size), 0);
  return (pos) => {
    const at = ends.findIndex((end) => Number.isFinite(pos) && pos < end);
    return segments[at === -1 ? segments.length - 1 : at];
  };
}
