import { AUDIO_BITRATE, Ladder } from '@platform/media';
import { overlayFilter, overlayImageChain, overlayPlacement, OverlaySettings, Size } from './overlay';

export interface HlsMuxerOptions {
  /**
   * ffmpeg before 4.2 (the npm-shipped 4.1 build) knows no `name:` key in `-var_stream_map`, and its HLS
   * muxer crashes (SIGSEGV) when closing with `-master_pl_name` and several variants. With this set,
   * variants are written to folders named by index (`0`, `1`, … see `variantFolder`) and no master
   * playlist is written; the worker writes its own master in every case.
   */
  legacyHlsMuxer?: boolean;
}

export interface LadderOptions extends HlsMuxerOptions {
  /** Folder receiving `master.m3u8` and one sub-folder per variant (`<name>/index.m3u8`, `<name>/segment_000.ts`). */
  outputDir: string;
  /** Source frame rate (-1 when unknown); fixes the GOP length in frames. */
  frameRate: number;
  /** Test asset: only the first 10 s, with a visible watermark. */
  test?: boolean;
  /** HLS segment length in seconds; default 4. */
  segmentSeconds?: number;
  /**
   * Key frame interval (GOP) in seconds; default 2 (Apple's HLS authoring spec: an IDR every two seconds), at most
   * the segment length. Two GOPs a segment: a seek, a clip's edge or a thumbnail decodes at most 2 s from a key frame.
   */
  keyframeSeconds?: number;
  /** libx264 preset; default `veryfast`. */
  preset?: string;
  /** Frames above this rate are dropped (fps filter); default 60. */
  maxFrameRate?: number;
  /** Filter burnt into test assets; default `TEST_WATERMARK` (see `testWatermark` for the fallbacks). */
  watermark?: string;
  /** Watermark images burnt into every rendition (`overlay_settings`), in the order given (later ones on top). */
  overlays?: LadderOverlay[];
  /** Audio filter chain applied once before the audio is encoded for each variant (`normalize_audio`: `loudnormFilter`). */
  audioFilter?: string;
}

export interface LadderOverlay {
  /** The image file (PNG, JPEG or WebP): ffmpeg input 1, 2, … after the main one. */
  image: string;
  imageSize: Size;
  settings: OverlaySettings;
}

export const TEST_ASSET_SECONDS = 10;
const DEFAULT_SEGMENT_SECONDS = 4;
const DEFAULT_KEYFRAME_SECONDS = 2;
/**
 * drawtext with `font=Sans` goes through fontconfig (Debian's ffmpeg 5.1 is built with libfreetype and
 * libfontconfig, and pulls in fonts-dejavu-core); no font file path is needed.
 */
export const TEST_WATERMARK =
  "drawtext=font=Sans:text='TEST ASSET':fontcolor=white@0.8:fontsize=h/10:box=1:boxcolor=black@0.5:boxborderw=12:x=(w-text_w)/2:y=(h-text_h)/2";
/** Without any usable font: a black band across the middle with a white bar inside, still plainly visible. */
export const TEST_WATERMARK_NO_FONT = 'drawbox=x=0:y=ih*2/5:w=iw:h=ih/5:color=black@0.6:t=fill,drawbox=x=iw/4:y=ih*9/20:w=iw/2:h=ih/10:color=white@0.8:t=fill';

/**
 * The watermark filter for the fonts this ffmpeg can use: `font=Sans` through fontconfig (the default),
 * an explicit font file when fontconfig finds nothing (a static build on a machine without its config),
 * or boxes only when there is no font at all.
 */
export function testWatermark(font: { fontFile: string } | 'fontconfig' | 'none'): string {
  if (font === 'fontconfig') return TEST_WATERMARK;
  if (font === 'none' || !SAFE_FONT_PATH.test(font.fontFile)) return TEST_WATERMARK_NO_FONT;
  return TEST_WATERMARK.replace('font=Sans', `fontfile=${font.fontFile}`);
}

/** A path that needs no filtergraph escaping (no `:`, quotes, commas, brackets or spaces). */
export const SAFE_FONT_PATH = /^[A-Za-z0-9/._-]+$/;

/** The folder ffmpeg writes variant `index` (named `name`) to: its name, or its index with the legacy muxer. */
export function variantFolder(index: number, name: string, options: HlsMuxerOptions = {}): string {
  return options.legacyHlsMuxer ? String(index) : name;
}

export function buildProbeArgs(input: string): string[] {
  return ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', input];
}

/** Packet sizes and key-frame flags of the first video stream, for `summarizeKeyframes`. */
export function buildKeyframeProbeArgs(input: string): string[] {
  return ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'packet=pts_time,dts_time,size,flags', '-print_format', 'json', input];
}

/**
 * Codec, profile, level, size and frame rate of each stream of one HLS segment (for the master playlist),
 * and the frames its first packets decode to (that the rendition is playable at all).
 */
export function buildSegmentProbeArgs(segment: string): string[] {
  return [
    '-v',
    'error',
    '-read_intervals',
    '%+#20',
    '-count_frames',
    '-show_entries',
    'stream=codec_type,codec_name,profile,level,width,height,avg_frame_rate,nb_read_frames',
    '-print_format',
    'json',
    segment,
  ];
}

function hlsArgs(outputDir: string, segmentSeconds: number, legacy: boolean): string[] {
  const args = [
    '-f',
    'hls',
    '-hls_time',
    String(segmentSeconds),
    '-hls_playlist_type',
    'vod',
    '-hls_flags',
    'independent_segments',
    '-hls_segment_type',
    'mpegts',
    '-hls_segment_filename',
    `${outputDir}/%v/segment_%03d.ts`,
  ];
  if (!legacy) args.push('-master_pl_name', 'master.m3u8');
  return args;
}

function streamMapEntry(streams: string, name: string, legacy: boolean | undefined): string {
  return legacy ? streams : `${streams},name:${name}`;
}

/**
 * One ffmpeg run: the input is decoded once, (watermarked for test assets,) given its watermark image at the
 * top rendition's size, split and scaled to every rendition, encoded with libx264 on a fixed, scene-cut-free
 * GOP (2 s: two a segment) so segments of every variant start on the same frames, and written as HLS with one playlist per
 * variant and a master playlist. An audio filter runs once, its output split to every variant's AAC encode.
 */
export function buildLadderArgs(input: string, ladder: Ladder, options: LadderOptions): string[] {
  const segmentSeconds = options.segmentSeconds ?? DEFAULT_SEGMENT_SECONDS;
  const keyframeSeconds = Math.min(options.keyframeSeconds ?? DEFAULT_KEYFRAME_SECONDS, segmentSeconds);
  const maxFrameRate = options.maxFrameRate ?? 60;
  const args = ['-hide_banner', '-nostdin', '-y', '-nostats', '-progress', 'pipe:1'];
  if (options.test) args.push('-t', String(TEST_ASSET_SECONDS));
  args.push('-i', input);

  const variants: string[] = [];
  const n = ladder.video.length;
  const audioFilter = ladder.audio ? options.audioFilter : undefined;
  const audioOf = (i: number) => (audioFilter ? `[a${i}]` : '0:a:0');
  const graph: string[] = [];
  if (n > 0) {
    const overlays = options.overlays ?? [];
    for (const overlay of overlays) args.push('-i', overlay.image);
    const filters: string[] = [];
    if (options.frameRate > maxFrameRate) filters.push(`fps=${maxFrameRate}`);
    if (options.test) filters.push(options.watermark ?? TEST_WATERMARK);
    const split = `split=${n}${ladder.video.map((_, i) => `[s${i}]`).join('')}`;
    if (overlays.length > 0) graph.push(...overlayGraph(overlays, ladder.video[0], filters, split));
    else graph.push(`[0:v:0]${[...filters, split].join(',')}`);
    ladder.video.forEach((r, i) => graph.push(`[s${i}]scale=${r.width}:${r.height},setsar=1,format=yuv420p[v${i}]`));
    if (audioFilter) graph.push(`[0:a:0]${audioFilter},asplit=${n}${ladder.video.map((_, i) => `[a${i}]`).join('')}`);
    args.push('-filter_complex', graph.join(';'));
    ladder.video.forEach((r, i) => {
      args.push('-map', `[v${i}]`);
      if (ladder.audio) args.push('-map', audioOf(i));
      variants.push(streamMapEntry(ladder.audio ? `v:${i},a:${i}` : `v:${i}`, r.name, options.legacyHlsMuxer));
    });
    const fps = Math.min(options.frameRate, maxFrameRate);
    args.push('-c:v', 'libx264', '-preset', options.preset ?? 'veryfast', '-profile:v', 'high');
    if (fps > 0) {
      const gop = String(Math.round(fps * keyframeSeconds));
      args.push('-g', gop, '-keyint_min', gop);
    }
    // Time-based key frames keep variants aligned even when the frame rate is unknown or variable.
    args.push('-sc_threshold', '0', '-force_key_frames', `expr:gte(t,n_forced*${keyframeSeconds})`);
    ladder.video.forEach((r, i) => {
      args.push(
        `-b:v:${i}`,
        String(r.videoBitrate),
        `-maxrate:v:${i}`,
        String(Math.round(r.videoBitrate * 1.07)),
        `-bufsize:v:${i}`,
        String(Math.round(r.videoBitrate * 1.5)),
      );
    });
  } else if (ladder.audio) {
    if (audioFilter) args.push('-filter_complex', `[0:a:0]${audioFilter}[a0]`);
    args.push('-map', audioOf(0));
    variants.push(streamMapEntry('a:0', 'audio', options.legacyHlsMuxer));
  }
  if (ladder.audio) {
    args.push('-c:a', 'aac', '-b:a', String(ladder.audio.bitrate), '-ac', String(ladder.audio.channels));
  }
  args.push(
    ...hlsArgs(options.outputDir, segmentSeconds, options.legacyHlsMuxer ?? false),
    '-var_stream_map',
    variants.join(' '),
    `${options.outputDir}/%v/index.m3u8`,
  );
  return args;
}

/**
 * Watermarks burnt in once, on a frame of the top rendition's size (the lower renditions are scaled from
 * it), one overlay after the other, the last one feeding the split.
 */
function overlayGraph(overlays: LadderOverlay[], top: Size, filters: string[], split: string): string[] {
  const placements = overlays.map((o) => overlayPlacement(o.settings, o.imageSize, top));
  const graph = placements.map((placement, k) => `[${k + 1}:v]${overlayImageChain(placement)}[wm${k}]`);
  graph.push(`[0:v:0]${[...filters, `scale=${top.width}:${top.height}`, 'setsar=1'].join(',')}[base]`);
  placements.forEach((placement, k) => {
    const from = k === 0 ? '[base]' : `[o${k - 1}]`;
    const last = k === placements.length - 1;
    graph.push(`${from}[wm${k}]${overlayFilter(placement)}${last ? `,${split}` : `[o${k}]`}`);
  });
  return graph;
}

export interface RemuxOptions extends HlsMuxerOptions {
  outputDir: string;
  hasVideo: boolean;
  hasAudio: boolean;
  segmentSeconds?: number;
  /** Variant folder name; default `source`. */
  name?: string;
  /** Audio filter chain (`normalize_audio`): the audio is then encoded to AAC; the video is still copied. */
  audioFilter?: string;
}

/**
 * A fast playable rendition of a standard (H.264/AAC) input: streams copied into HLS, no decode (with an
 * audio filter, the audio alone is decoded, filtered and encoded again).
 * Segments cut on the source's own key frames, so they are only as regular as its GOP. Not for test
 * assets: those must be cut and watermarked, which needs the encode. `-var_stream_map` is used even for
 * one variant because it makes ffmpeg create the variant folder.
 */
export function buildRemuxArgs(input: string, options: RemuxOptions): string[] {
  const segmentSeconds = options.segmentSeconds ?? DEFAULT_SEGMENT_SECONDS;
  const maps: string[] = [];
  const streams: string[] = [];
  if (options.hasVideo) {
    maps.push('-map', '0:v:0');
    streams.push('v:0');
  }
  if (options.hasAudio) {
    maps.push('-map', '0:a:0');
    streams.push('a:0');
  }
  const dir = options.outputDir;
  const audioFilter = options.hasAudio ? options.audioFilter : undefined;
  const codecs = audioFilter ? ['-c:v', 'copy', '-af', audioFilter, '-c:a', 'aac', '-b:a', String(AUDIO_BITRATE)] : ['-c', 'copy'];
  return [
    '-hide_banner',
    '-nostdin',
    '-y',
    '-nostats',
    '-progress',
    'pipe:1',
    '-i',
    input,
    ...maps,
    ...codecs,
    '-f',
    'hls',
    '-hls_time',
    String(segmentSeconds),
    '-hls_playlist_type',
    'vod',
    '-hls_segment_type',
    'mpegts',
    '-hls_segment_filename',
    `${dir}/%v/segment_%03d.ts`,
    '-var_stream_map',
    streamMapEntry(streams.join(','), options.name ?? 'source', options.legacyHlsMuxer),
    `${dir}/%v/index.m3u8`,
  ];
}
