import { isoOf } from './view-time';

/** A `view_events` row as the detail reads it. */
export interface ViewEventRow {
  name: string;
  event_time: number | string;
  viewer_time: number | string;
  playback_time: number | string | null;
  details: string;
}

/** Columns Mux's view body carries as decimal strings (scores, percentages, times: `"0.95"`). */
const DECIMAL_STRING_FIELDS = new Set([
  'buffering_rate',
  'playback_score',
  'quality_score',
  'rebuffer_percentage',
  'rebuffering_score',
  'startup_score',
  'view_max_downscale_percentage',
  'view_max_playhead_position',
  'view_max_upscale_percentage',
  'view_playing_time',
  'view_total_downscaling',
  'view_total_upscaling',
  'viewer_experience_score',
]);

/** Flags Mux always sends as booleans (false when nothing said otherwise). */
const ALWAYS_BOOLEAN_FIELDS = [
  'exit_before_video_start',
  'long_rebuffering',
  'long_resume',
  'playback_failure',
  'player_autoplay',
  'player_preload',
  'time_shift_enabled',
  'used_captions',
  'used_fullscreen',
  'used_pip',
  'video_startup_failure',
  'view_dropped',
  'view_has_ad',
  'watched',
];

/** Columns that are bookkeeping of the view builder, not fields of Mux's view. */
const INTERNAL_COLUMNS = new Set(['version', 'event_count', 'last_beacon_at', 'env_key']);

const DATE_FIELDS = new Set(['view_start', 'view_end', 'inserted_at', 'updated_at']);

const numberOrNull = (v: unknown): number | null => (v === null || v === undefined || v === '' ? null : Number(v));

/** Spec 001 §2.1: a row of the list (`total_row_count` repeated on each, as Mux does). */
export function toVideoViewListItem(row: Record<string, unknown>, totalRowCount: number) {
  return {
    id: row.view_id as string,
    view_start: isoOf(row.view_start as string),
    view_end: isoOf(row.view_end as string),
    video_title: (row.video_title as string | null) ?? null,
    viewer_os_family: (row.viewer_os_family as string | null) ?? null,
    viewer_application_name: (row.viewer_application_name as string | null) ?? null,
    country_code: (row.country_code as string | null) ?? null,
    player_error_message: (row.player_error_message as string | null) ?? null,
    player_error_code: (row.player_error_code as string | null) ?? null,
    error_type_id: numberOrNull(row.error_type_id),
    playback_failure: row.playback_failure === true,
    viewer_experience_score: numberOrNull(row.viewer_experience_score),
    watch_time: numberOrNull(row.watch_time),
    total_row_count: totalRowCount,
  };
}

/** Spec 001 §2.2: every field of the view under Mux's names, and its event timeline. */
export function toVideoViewDetail(row: Record<string, unknown>, events: readonly ViewEventRow[]) {
  const view: Record<string, unknown> = { id: row.view_id };
  for (const [column, value] of Object.entries(row)) {
    if (INTERNAL_COLUMNS.has(column)) continue;
    if (DATE_FIELDS.has(column)) view[column] = isoOf(value as string | null);
    else if (DECIMAL_STRING_FIELDS.has(column)) view[column] = typeof value === 'number' || typeof value === 'string' ? String(value) : null;
    else view[column] = value;
  }
  for (const flag of ALWAYS_BOOLEAN_FIELDS) view[flag] = view[flag] === true;
  view.player_svc_plugin_name = view.player_mux_plugin_name ?? null;
  view.player_svc_plugin_version = view.player_mux_plugin_version ?? null;
  view.view_error_id = view.error_type_id ?? null;
  view.events = events.map(toTimelineEvent);
  return view;
}

function toTimelineEvent(event: ViewEventRow) {
  return {
    name: event.name,
    event_time: Number(event.event_time),
    viewer_time: Number(event.viewer_time),
    playback_time: numberOrNull(event.playback_time),
    details: parseDetails(event.details),
  };
}

function parseDetails(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
