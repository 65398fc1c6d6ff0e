import { assets } from '@platform/proto';

/** What the asset stores, as the probe reported it: the stored video size (the top rendition's) and whether it has audio. */
export interface StoredMedia {
  video?: { width: number; height: number };
  audio: boolean;
}

/**
 * One file to make: `shortSide` is the video's short side in pixels, 0 for the highest stored
 * rendition as it is (`highest.mp4`); an M4A has no video.
 */
export interface PlannedFile {
  name: string;
  ext: 'mp4' | 'm4a';
  video: boolean;
  audio: boolean;
  shortSide: number;
}

/** Every name mp4_support can give a file (what `none` removes). */
export const MP4_SUPPORT_NAMES = ['low.mp4', 'medium.mp4', 'high.mp4', 'capped-1080p.mp4', 'audio.m4a'] as const;

/**
 * mp4_support `standard`: `low.mp4` (360p), `medium.mp4` (540p) and `high.mp4` (up to 1080p), each the
 * smaller of its size and the stored size (short side), a size only when the stored video is larger than
 * the size below it. Read from the files Mux made: a 640x400 source got low 576x360 and medium 640x400;
 * a portrait one stored at 1080x1920 got high 1080x1920, medium 540x960, low 360x640.
 */
const STANDARD_SIZES: ReadonlyArray<{ name: string; cap: number }> = [
  { name: 'low.mp4', cap: 360 },
  { name: 'medium.mp4', cap: 540 },
  { name: 'high.mp4', cap: 1080 },
];
const CAPPED = 1080;

export function storedMediaOf(tracks: readonly assets.Track[]): StoredMedia {
  const video = tracks.find((t) => t.type === 'video' && (t.max_width ?? 0) > 0 && (t.max_height ?? 0) > 0);
  return {
    ...(video ? { video: { width: video.max_width!, height: video.max_height! } } : {}),
    audio: tracks.some((t) => t.type === 'audio'),
  };
}

const shortSideOf = (v: { width: number; height: number }) => Math.min(v.width, v.height);
const mp4 = (name: string, media: StoredMedia, shortSide: number): PlannedFile => ({ name, ext: 'mp4', video: true, audio: media.audio, shortSide });
const m4a: PlannedFile = { name: 'audio.m4a', ext: 'm4a', video: false, audio: true, shortSide: 0 };

/**
 * The files an mp4_support value makes of this asset (Mux's table, "enable static MP4 renditions using
 * mp4_support"): an audio-only asset gets `audio.m4a` whatever the option, a video-only asset asked for
 * `audio-only` gets an error.
 */
export function mp4SupportFiles(mp4Support: string, media: StoredMedia): { files: PlannedFile[] } | { error: string } {
  const { video } = media;
  if (!video) return media.audio ? { files: [m4a] } : { error: 'The asset has neither video nor audio to make MP4 files of.' };
  const short = shortSideOf(video);
  const capped = mp4('capped-1080p.mp4', media, Math.min(short, CAPPED));
  switch (mp4Support) {
    case 'standard':
      return {
        files: STANDARD_SIZES.filter((size, i) => i === 0 || short > STANDARD_SIZES[i - 1].cap).map((size) => mp4(size.name, media, Math.min(short, size.cap))),
      };
    case 'capped-1080p':
      return { files: [capped] };
    case 'audio-only':
      return media.audio ? { files: [m4a] } : { error: 'The asset has no audio track, so mp4_support "audio-only" has nothing to make.' };
    case 'audio-only,capped-1080p':
      return { files: media.audio ? [m4a, capped] : [capped] };
    default:
      return { files: [] };
  }
}

/** The file name of a Static Renditions API resolution: `highest.mp4`, `audio.m4a`, `720p.mp4`, … */
export function nameOfResolution(resolution: string): string {
  if (resolution === 'audio-only') return 'audio.m4a';
  return `${resolution}.mp4`;
}

/** Mux's `type`: `advanced` for a named resolution, `standard` for `highest` and `audio-only`. */
export function typeOfResolution(resolution: string): 'standard' | 'advanced' {
  return resolution === 'highest' || resolution === 'audio-only' ? 'standard' : 'advanced';
}

/**
 * The resolution tier of a rendition (Mux bills it so): `audio-only`; a named resolution's own tier
 * (720p and below are the 720p tier); `highest`, the asset's tier once it is known.
 */
export function tierOfResolution(resolution: string, assetTier: string | undefined): string | undefined {
  if (resolution === 'audio-only') return 'audio-only';
  if (resolution === 'highest') return assetTier;
  const lines = Number.parseInt(resolution, 10);
  if (lines >= 2160) return '2160p';
  if (lines >= 1440) return '1440p';
  if (lines >= 1080) return '1080p';
  return '720p';
}

/**
 * A Static Renditions API rendition of this asset, or undefined when it conflicts with what was
 * ingested (Mux then marks it `skipped`): a video rendition of an audio-only asset, `audio-only` of a
 * video-only one, a resolution above the stored video's short side.
 */
export function staticRenditionFile(resolution: string, media: StoredMedia): PlannedFile | undefined {
  if (resolution === 'audio-only') return media.audio ? m4a : undefined;
  if (!media.video) return undefined;
  if (resolution === 'highest') return mp4('highest.mp4', media, 0);
  const lines = Number.parseInt(resolution, 10);
  if (!(lines > 0) || lines > shortSideOf(media.video)) return undefined;
  return mp4(nameOfResolution(resolution), media, lines);
}
