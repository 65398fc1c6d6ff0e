import { BeaconBatch, BeaconEvent, BeaconValue, numberOf, stringOf } from './beacon-values';

/** One beacon event as the view keeps it (a row of `view_events`). Times are epoch ms. */
export interface StoredViewEvent {
  view_id: string;
  view_sequence_number: number;
  /** The beacon's `event` (viewstart, playing, hb, …). */
  name: string;
  /** Server time: the player's clock moved onto ours (see `clockOffsetCandidate`). */
  event_time: number;
  /** The player's clock, as sent. */
  viewer_time: number;
  /** `player_playhead_time`, ms into the media. */
  playback_time: number | null;
  received_at: number;
  /** The whole event as received (keys expanded), so the view can be folded again from storage. */
  beacon: BeaconEvent;
}

/** An entry of the view's `events` (Mux's VideoViewResponse.Data.Event). */
export interface TimelineEvent {
  name: string;
  event_time: number;
  viewer_time: number;
  playback_time: number;
  details: Record<string, BeaconValue>;
}

export interface ReadBatch {
  events: StoredViewEvent[];
  /** Events that cannot belong to the view: no usable sequence number, another view's id, no name. */
  rejected: number;
}

/**
 * The batch's events with a usable identity: a positive integer `view_sequence_number` and the
 * batch's `view_id` (mux-embed sends both on every event). A sequence number seen twice in the
 * batch keeps its first event. `event_time` is `viewer_time + offset`, the offset being the view's
 * smallest `received_at − viewer_time` so far, including this batch.
 */
export function readBatch(batch: BeaconBatch, previousOffsetMs: number | null): ReadBatch & { clockOffsetMs: number | null } {
  const seen = new Set<number>();
  const accepted: Omit<StoredViewEvent, 'event_time'>[] = [];
  let rejected = 0;
  for (const raw of batch.events) {
    const seq = numberOf(raw.view_sequence_number);
    const name = stringOf(raw.event);
    const viewId = stringOf(raw.view_id);
    if (seq === null || !Number.isSafeInteger(seq) || seq < 1 || name === null || (viewId !== null && viewId !== batch.view_id) || seen.has(seq)) {
      rejected++;
      continue;
    }
    seen.add(seq);
    const viewerTime = numberOf(raw.viewer_time);
    accepted.push({
      view_id: batch.view_id,
      view_sequence_number: seq,
      name,
      viewer_time: viewerTime === null ? batch.received_at : Math.round(viewerTime),
      playback_time: numberOf(raw.player_playhead_time),
      received_at: batch.received_at,
      beacon: raw,
    });
  }
  const offset = minOffset(previousOffsetMs, clockOffsetCandidate(batch.received_at, accepted));
  const events = accepted.map((e) => ({ ...e, event_time: offset === null ? e.received_at : Math.min(e.received_at, e.viewer_time + offset) }));
  return { events, rejected, clockOffsetMs: offset };
}

/**
 * `received_at − viewer_time` of the batch's latest event. The player queues events up to 10 s
 * before it posts them, so each batch over-estimates the offset by its queueing delay; the smallest
 * estimate (a viewstart is posted at once) is the best.
 */
export function clockOffsetCandidate(receivedAt: number, events: readonly Pick<StoredViewEvent, 'viewer_time'>[]): number | null {
  if (events.length === 0) return null;
  return receivedAt - Math.max(...events.map((e) => e.viewer_time));
}

export function minOffset(a: number | null, b: number | null): number | null {
  if (a === null) return b;
  if (b === null) return a;
  return Math.min(a, b);
}

const DETAIL_KEYS: Readonly<Record<string, readonly string[]>> = {
  error: ['player_error_code', 'player_error_message', 'player_error_context', 'player_error_severity', 'player_error_business_exception'],
  renditionchange: [
    'video_source_bitrate',
    'video_source_width',
    'video_source_height',
    'video_source_fps',
    'video_source_codec',
    'video_source_rendition_name',
  ],
  playerready: ['player_startup_time', 'page_load_time'],
  seeked: ['view_seek_duration'],
  rebufferend: ['view_rebuffer_duration'],
  cdnchange: ['video_cdn', 'video_previous_cdn'],
};

/** What the timeline shows of an event: its own subject (the error, the new rendition, a request). */
export function timelineDetails(event: Pick<StoredViewEvent, 'name' | 'beacon'>): Record<string, BeaconValue> {
  const details: Record<string, BeaconValue> = {};
  const keys = event.name.startsWith('request')
    ? Object.keys(event.beacon).filter((k) => k.startsWith('request_') && k !== 'request_response_headers')
    : (DETAIL_KEYS[event.name] ?? []);
  for (const key of keys) {
    const value = event.beacon[key];
    if (value !== undefined && value !== null) details[key] = value;
  }
  return details;
}

export function toTimelineEvent(event: StoredViewEvent): TimelineEvent {
  return {
    name: event.name,
    event_time: event.event_time,
    viewer_time: event.viewer_time,
    playback_time: event.playback_time ?? 0,
    details: timelineDetails(event),
  };
}
