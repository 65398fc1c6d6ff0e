import { PackagerInput } from './packager-args';

/** What ffprobe read of an encoder's stream before its span starts (undefined parts: not there). */
export interface SourceMedia {
  video?: { codec: string; width: number; height: number };
  audio?: { codec: string; channels: number };
}

/** The size and sound of a recording's media, which slate imitates. */
export interface SlateShape {
  video?: { width: number; height: number };
  audio?: { channels: number };
}

const SLATE_FRAME_RATE = 30;
/** The default slate: a plain dark frame (no font or image needed). */
const DEFAULT_SLATE_COLOR = '0x1f2937';

/**
 * The encoder's stream pulled back from the local RTMP server: its H.264 and AAC stream-copied into
 * the top rung, anything else encoded; only its sound for an `audio_only` stream. Without a probe
 * (`media` undefined) the streams are copied as they are. Maps are optional.
 */
export function contentInput(sourceUrl: string, media: SourceMedia | undefined, audioOnly = false): PackagerInput {
  const hasVideo = !audioOnly && (media === undefined || media.video !== undefined);
  const hasAudio = media === undefined || media.audio !== undefined;
  return {
    args: ['-rw_timeout', '10000000', '-i', sourceUrl],
    ...(hasVideo ? { video: '0:v' } : {}),
    ...(hasAudio ? { audio: '0:a' } : {}),
    // a probe of half a second may miss a stream that starts later: maps stay optional
    optional: true,
    copyVideo: media?.video === undefined || media.video.codec === 'h264',
    copyAudio: media?.audio === undefined || media.audio.codec === 'aac',
    keyFrames: 'source',
    tune: 'zerolatency',
    rateControl: 'bitrate',
    audioBitrate: '128k',
  };
}

/**
 * Slate in real time, shaped like the session it stands in for (same picture size, same number of
 * audio channels, silent), key frames at the latency mode's segment length: the stream's image
 * (looped, scaled and padded into the frame), or the default slate without one.
 */
export function slateInput(shape: SlateShape, segmentSeconds: number, image?: string): PackagerInput {
  const args: string[] = [];
  if (shape.video) {
    const { width: w, height: h } = shape.video;
    if (image) args.push('-re', '-loop', '1', '-framerate', String(SLATE_FRAME_RATE), '-i', image);
    else args.push('-re', '-f', 'lavfi', '-i', `color=c=${DEFAULT_SLATE_COLOR}:s=${w}x${h}:r=${SLATE_FRAME_RATE}`);
  }
  if (shape.audio) {
    args.push(...(shape.video ? [] : ['-re']), '-f', 'lavfi', '-i', `anullsrc=r=48000:cl=${shape.audio.channels === 1 ? 'mono' : 'stereo'}`);
  }
  const fit = shape.video
    ? `scale=${shape.video.width}:${shape.video.height}:force_original_aspect_ratio=decrease,` +
      `pad=${shape.video.width}:${shape.video.height}:(ow-iw)/2:(oh-ih)/2,format=yuv420p,fps=${SLATE_FRAME_RATE}`
    : undefined;
  return {
    args,
    ...(shape.video ? { video: '0:v', videoFilter: fit } : {}),
    ...(shape.audio ? { audio: `${shape.video ? 1 : 0}:a` } : {}),
    copyVideo: false,
    copyAudio: false,
    keyFrames: { everyFrames: segmentSeconds * SLATE_FRAME_RATE },
    tune: 'stillimage',
    rateControl: 'quality',
    audioBitrate: '64k',
  };
}
