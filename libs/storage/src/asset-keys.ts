/**
 * Where an asset's files live. Everything of an asset is under `prefix(assetId)`, so deleting
 * the asset is one `deletePrefix`. HLS: `hls/master.m3u8` lists `<variant>/index.m3u8`, which
 * lists `segment_000.ts`, … beside it.
 */
export const assetKeys = {
  prefix: (assetId: string): string => `assets/${assetId}/`,
  hls: (assetId: string, path: string): string => `assets/${assetId}/hls/${path}`,
};
