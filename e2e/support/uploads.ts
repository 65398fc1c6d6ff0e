import Mux from '@mux/mux-node';
import { readUntil } from '@platform/testing';

type Upload = Awaited<ReturnType<Mux['video']['uploads']['retrieve']>>;

/** Polls an upload until `until` holds (or the time runs out) and returns it. */
export function uploadWhen(mux: Mux, id: string, until: (u: Upload) => boolean, timeoutMs = 60_000): Promise<Upload> {
  return readUntil(() => mux.video.uploads.retrieve(id), until, { timeoutMs, intervalMs: 250 });
}

/** A PUT to an upload URL, as a script (curl, fetch) sends it. */
export async function putBytes(url: string, body: Buffer, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; body: any }> {
  const res = await fetch(url, { method: 'PUT', body, headers: { 'content-type': 'video/mp4', ...headers } });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, headers: res.headers, body: parsed };
}
