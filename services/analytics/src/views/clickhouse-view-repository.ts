import { AnalyticsStore } from '../clickhouse/analytics-store.port';
import { BeaconEvent } from './beacon-values';
import { StoredViewEvent, timelineDetails } from './view-event';
import { StoredViewClosure, ViewRepository } from './view-repository';
import { ViewRow, formatDateTime64 } from './view-row';

interface ViewEventRecord {
  view_id: string;
  view_sequence_number: number | string;
  name: string;
  event_time_ms: number | string;
  viewer_time: number | string;
  playback_time: number | null;
  received_at_ms: number | string;
  beacon: string;
}

function parseBeacon(text: string): BeaconEvent {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as BeaconEvent) : {};
  } catch {
    return {};
  }
}

/** The views tables in ClickHouse (chDB or a server: the same SQL). */
export class ClickHouseViewRepository implements ViewRepository {
  constructor(private readonly store: AnalyticsStore) {}

  async loadEvents(viewIds: readonly string[]): Promise<Map<string, StoredViewEvent[]>> {
    const out = new Map<string, StoredViewEvent[]>();
    if (viewIds.length === 0) return out;
    // LIMIT 1 BY: a batch redelivered after a partial write may have stored its events twice.
    const rows = await this.store.query<ViewEventRecord>(
      `SELECT view_id, view_sequence_number, name, toUnixTimestamp64Milli(event_time) AS event_time_ms, viewer_time, playback_time,
              toUnixTimestamp64Milli(received_at) AS received_at_ms, beacon
       FROM view_events WHERE view_id IN {ids:Array(String)}
       ORDER BY view_id, view_sequence_number LIMIT 1 BY view_id, view_sequence_number`,
      { ids: viewIds },
    );
    for (const r of rows) {
      const events = out.get(r.view_id) ?? [];
      events.push({
        view_id: r.view_id,
        view_sequence_number: Number(r.view_sequence_number),
        name: r.name,
        event_time: Number(r.event_time_ms),
        viewer_time: Number(r.viewer_time),
        playback_time: r.playback_time === null ? null : Number(r.playback_time),
        received_at: Number(r.received_at_ms),
        beacon: parseBeacon(r.beacon),
      });
      out.set(r.view_id, events);
    }
    return out;
  }

  async loadClosures(viewIds: readonly string[]): Promise<Map<string, StoredViewClosure>> {
    if (viewIds.length === 0) return new Map();
    const rows = await this.store.query<StoredViewClosure>('SELECT view_id, view_end FROM views FINAL WHERE view_id IN {ids:Array(String)}', { ids: viewIds });
    return new Map(rows.map((r) => [r.view_id, r]));
  }

  async saveEvents(events: readonly StoredViewEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.store.insert(
      'view_events',
      events.map((e) => ({
        view_id: e.view_id,
        view_sequence_number: e.view_sequence_number,
        name: e.name,
        event_time: formatDateTime64(e.event_time),
        viewer_time: e.viewer_time,
        playback_time: e.playback_time,
        received_at: formatDateTime64(e.received_at),
        details: JSON.stringify(timelineDetails(e)),
        beacon: JSON.stringify(e.beacon),
      })),
    );
  }

  async saveViews(rows: readonly ViewRow[]): Promise<void> {
    if (rows.length === 0) return;
    await this.store.insert('views', rows as unknown as Record<string, unknown>[]);
  }

  async findSilentViews(cutoffMs: number, limit: number): Promise<string[]> {
    const rows = await this.store.query<{ view_id: string }>(
      `SELECT view_id FROM views FINAL
       WHERE view_end IS NULL AND last_beacon_at < fromUnixTimestamp64Milli({cutoff:Int64}, 'UTC')
       ORDER BY last_beacon_at LIMIT {limit:UInt32}`,
      { cutoff: cutoffMs, limit },
    );
    return rows.map((r) => r.view_id);
  }
}
