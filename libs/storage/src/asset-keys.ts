/**
 * Where an asset's files live. Everything of an asset is under `prefix(assetId)`, so deleting
 * the asset is one `deletePrefix`. HLS: `hls/master.m3u8` lists `<variant>/index.m3u8`, which
 * lists `segment_000.ts`, … beside it. Downloads: `static/<name>`, `master/master.mp4`.
 */
export const assetKeys = {
  prefix: (assetId: string): string => `assets/${assetId}/`,
  hls: (assetId: string, path: string): string => `assets/${assetId}/hls/${path}`,
  /** A static MP4/M4A rendition by its file name (`high.mp4`, `audio.m4a`, …), served at `{stream_url}/{playback_id}/{name}`. */
  staticRendition: (assetId: string, name: string): string => `assets/${assetId}/static/${name}`,
  /** The temporary master MP4 (master_access `temporary`). */
  master: (assetId: string): string => `assets/${assetId}/master/master.mp4`,
};

/**
 * Where a direct upload's file lives: `uploads/{id}/source`, written by the uploads service and
 * read by the transcoder; it belongs to the upload's asset and goes when the asset is deleted.
 */
export const uploadKeys = {
  prefix: (uploadId: string): string => `uploads/${uploadId}/`,
  source: (uploadId: string): string => `uploads/${uploadId}/source`,
};

/**
 * Where a track's files live inside an asset's `hls/` folder: a text track's whole WebVTT
 * (`text/{track_id}.vtt`, served at `{stream_url}/{playback_id}/text/{track_id}.vtt`) and a track's
 * rendition, listed in the master by the playback host: `text-{track_id}/index.m3u8` (segmented
 * WebVTT) or `audio-{track_id}/index.m3u8` (AAC in MPEG-TS), segments beside it.
 */
export const trackPaths = {
  textFile: (trackId: string): string => `text/${trackId}.vtt`,
  rendition: (type: 'text' | 'audio', trackId: string): string => `${type}-${trackId}`,
  playlist: (type: 'text' | 'audio', trackId: string): string => `${type}-${trackId}/index.m3u8`,
};
