/**
 * Where an asset's files live. Everything of an asset is under `prefix(assetId)`, so deleting
 * the asset is one `deletePrefix`. HLS: `hls/master.m3u8` lists `<variant>/index.m3u8`, which
 * lists `segment_000.ts`, … beside it.
 */
export const assetKeys = {
  prefix: (assetId: string): string => `assets/${assetId}/`,
  hls: (assetId: string, path: string): string => `assets/${assetId}/hls/${path}`,
};

/**
 * Where a direct upload's file lives: `uploads/{id}/source`, written by the uploads service and
 * read by the transcoder; it belongs to the upload's asset and goes when the asset is deleted.
 */
export const uploadKeys = {
  prefix: (uploadId: string): string => `uploads/${uploadId}/`,
  source: (uploadId: string): string => `uploads/${uploadId}/source`,
};
