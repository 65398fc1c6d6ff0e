import Mux from '@mux/mux-node';
import { readUntil } from '@platform/testing';
import { platform } from './context';

type Asset = Awaited<ReturnType<Mux['video']['assets']['retrieve']>>;

/** Polls an asset until it leaves `preparing` (or the time runs out) and returns it. */
export function settledAsset(mux: Mux, id: string, timeoutMs = 120_000): Promise<Asset> {
  return readUntil(
    () => mux.video.assets.retrieve(id),
    (asset) => asset.status !== 'preparing',
    { timeoutMs, intervalMs: 250 },
  );
}

export function streamUrl(path: string): string {
  const base = process.env.E2E_STREAM_URL;
  if (!base) throw new Error('E2E_STREAM_URL is not set');
  return `${base}/${path}`;
}

/** A URL on the image host ({image_url}): thumbnails, animated images, storyboards. */
export function imageUrl(path: string): string {
  const base = process.env.E2E_IMAGE_URL;
  if (!base) throw new Error('E2E_IMAGE_URL is not set');
  return `${base}/${path}`;
}

/** URIs (non-tag lines) of a playlist, in order. */
export function playlistUris(playlist: string): string[] {
  return playlist
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
}

/** Resolves a playlist entry against the playlist's own URL, as a player does. */
export function resolveUri(playlistUrl: string, uri: string): string {
  return new URL(uri, playlistUrl).toString();
}

export { platform };
