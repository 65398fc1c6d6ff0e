/** Whose file it is: mp4_support's set (Mux's deprecated method) or one rendition of the Static Renditions API. */
export type StaticRenditionOrigin = 'mp4_support' | 'api';
export type StaticRenditionStatus = 'preparing' | 'ready' | 'errored' | 'skipped';
/** The aggregate status of mp4_support's files; null (shown as `disabled`) while mp4_support is `none`. */
export type Mp4SupportStatus = 'preparing' | 'ready' | 'errored';
export type MasterStatus = 'preparing' | 'ready' | 'errored';

/**
 * A static rendition as the asset row keeps it (`assets.static_renditions`, jsonb): mp4_support's
 * files once made, the Static Renditions API's from their request on. `width` … `filesize` are what
 * was read from the stored file.
 */
export interface StoredStaticRendition {
  origin: StaticRenditionOrigin;
  /** Static Renditions API only. */
  id?: string;
  name: string;
  ext: 'mp4' | 'm4a';
  status: StaticRenditionStatus;
  /** Static Renditions API only: as asked for, its type (`advanced` for a named resolution) and tier. */
  resolution?: string;
  type?: 'standard' | 'advanced';
  resolution_tier?: string;
  passthrough?: string;
  width?: number;
  height?: number;
  bitrate?: number;
  filesize?: number;
  /** ISO 8601. */
  created_at: string;
}
