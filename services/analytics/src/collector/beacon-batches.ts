import type { BeaconBatch } from '@platform/events';
import type { MinifiedEvent } from './beacon-payload';
import { expandKeys } from './expand-keys';
import { playbackIdOf } from './playback-id-of';

/** Fields the collector adds to every event of a POST (user agent and, with a geo database, address derived). */
export type Enrichment = Readonly<Record<string, string>>;

/**
 * A POST's events, keys expanded, enriched and grouped by view in the order sent: one batch per view id.
 * Enrichment fills a field unless the player sent a non-empty value of its own (mux-embed sends
 * `viewer_device_category: ""`; native SDKs send real ones). `playback_id` is set on events that carry a
 * source URL of ours (`{stream_url}/{id}.m3u8`), so views without an env key can be attributed.
 * Events without a view id are returned apart (`orphans`): they cannot be keyed.
 */
export function beaconBatches(events: readonly MinifiedEvent[], enrichment: Enrichment, receivedAt: number): { batches: BeaconBatch[]; orphans: number } {
  const byView = new Map<string, BeaconBatch>();
  let orphans = 0;
  for (const minified of events) {
    const event = expandKeys(minified);
    const viewId = event.view_id;
    if (typeof viewId !== 'string' || viewId === '') {
      orphans++;
      continue;
    }
    for (const [key, value] of Object.entries(enrichment)) {
      const sent = event[key];
      if (sent === undefined || sent === null || sent === '') event[key] = value;
    }
    const playbackId = playbackIdOf(event.video_source_url) ?? playbackIdOf(event.player_source_url);
    if (playbackId !== undefined) event.playback_id = playbackId;
    let batch = byView.get(viewId);
    if (!batch) byView.set(viewId, (batch = { view_id: viewId, received_at: receivedAt, events: [] }));
    batch.events.push(event);
  }
  return { batches: [...byView.values()], orphans };
}
