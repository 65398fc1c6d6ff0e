import { booleanOf, numberOf, stringOf } from './beacon-values';
import { advancePlayingTime, switchBitrate } from './rendition-timeline';
import { readViewError } from './view-errors';
import { StoredViewEvent } from './view-event';
import { ViewState, emptyViewState } from './view-state';

/** Keys that describe one event, not the view: never carried forward to the next event. */
const PER_EVENT_PREFIXES = ['player_error_', 'request_'];
const PER_EVENT_KEYS = new Set(['event']);

/** Keys whose first value Mux reports as `<key>_initial`. */
const INITIAL_KEYS = ['video_source_bitrate', 'video_source_width', 'video_source_height', 'video_source_fps', 'video_source_codec'];

function isPerEventKey(key: string): boolean {
  return PER_EVENT_KEYS.has(key) || PER_EVENT_PREFIXES.some((p) => key.startsWith(p));
}

/**
 * Applies one event to the view (in place). Callers apply events in sequence order; an event
 * whose sequence number was applied already changes nothing.
 */
export function applyEvent(state: ViewState, event: StoredViewEvent): void {
  const seq = event.view_sequence_number;
  if (state.appliedSequences.has(seq)) return;
  state.appliedSequences.add(seq);
  state.maxSequence = Math.max(state.maxSequence, seq);
  state.firstEventTime = Math.min(state.firstEventTime ?? Infinity, event.event_time);
  state.lastEventTime = Math.max(state.lastEventTime ?? -Infinity, event.event_time);
  state.firstReceivedAt = Math.min(state.firstReceivedAt ?? Infinity, event.received_at);
  state.lastReceivedAt = Math.max(state.lastReceivedAt ?? -Infinity, event.received_at);
  const offset = event.received_at - event.viewer_time;
  state.clockOffsetMs = state.clockOffsetMs === null ? offset : Math.min(state.clockOffsetMs, offset);

  const { beacon, name } = event;
  // The playing time up to this event was spent at the bitrate current before it.
  advancePlayingTime(state.rendition, numberOf(beacon.view_playing_time_ms_cumulative));
  for (const [key, value] of Object.entries(beacon)) {
    if (isPerEventKey(key)) continue;
    state.fields[key] = value;
    if (value !== null && INITIAL_KEYS.includes(key) && state.initial[key] === undefined) state.initial[key] = value;
  }
  switchBitrate(state.rendition, numberOf(state.fields.video_source_bitrate), name === 'renditionchange');

  switch (name) {
    case 'viewstart':
      state.viewStartTime ??= event.event_time;
      break;
    case 'playing':
    case 'adplaying':
      state.firstFrame = true;
      break;
    case 'error':
      recordError(state, event);
      break;
    case 'viewend':
      state.viewEndTime ??= event.event_time;
      break;
  }
  if (numberOf(state.fields.view_time_to_first_frame) !== null) state.firstFrame = true;
  if (booleanOf(beacon.player_is_fullscreen) === true) state.usedFullscreen = true;
  if (booleanOf(beacon.player_text_track_enabled) === true) state.usedCaptions = true;
  if (stringOf(beacon.player_playback_mode)?.toLowerCase() === 'pip') state.usedPip = true;
}

function recordError(state: ViewState, event: StoredViewEvent): void {
  state.errorCount++;
  const error = readViewError(event.beacon, event.event_time, !state.firstFrame);
  if (error.severity === 'warning') state.lastWarning = error;
  else if (error.businessException) state.businessError ??= error;
  else state.fatalError ??= error;
}

/** A view missing its viewstart event (lost beacon) still started when its `view_start` says. */
function inferViewStart(state: ViewState): void {
  if (state.viewStartTime !== null) return;
  const viewStart = numberOf(state.fields.view_start);
  if (viewStart !== null && state.clockOffsetMs !== null) state.viewStartTime = Math.round(viewStart + state.clockOffsetMs);
}

function bySequence(a: StoredViewEvent, b: StoredViewEvent): number {
  return a.view_sequence_number - b.view_sequence_number;
}

/** Applies events (any order among themselves) that all come after the view's last applied one. */
export function applyEvents(state: ViewState, events: readonly StoredViewEvent[]): ViewState {
  for (const event of [...events].sort(bySequence)) applyEvent(state, event);
  inferViewStart(state);
  return state;
}

/** The view from all its events, e.g. as stored; duplicates (same sequence number) count once. */
export function foldEvents(viewId: string, events: readonly StoredViewEvent[]): ViewState {
  return applyEvents(emptyViewState(viewId), events);
}

export interface BatchPlan {
  /** Events whose sequence number the view has not applied. */
  fresh: StoredViewEvent[];
  /** True when every fresh event comes after the last applied one (no refold needed). */
  inOrder: boolean;
}

export function planBatch(state: ViewState, events: readonly StoredViewEvent[]): BatchPlan {
  const fresh = events.filter((e) => !state.appliedSequences.has(e.view_sequence_number));
  return { fresh, inOrder: fresh.every((e) => e.view_sequence_number > state.maxSequence) };
}
