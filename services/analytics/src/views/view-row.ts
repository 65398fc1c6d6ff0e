import { countOf, numberOf, stringOf, booleanOf, BeaconValue } from './beacon-values';
import { DIRECT_COLUMNS, DIRECT_KIND_TYPES, DirectColumn, DirectViewRow, beaconKeyOf } from './view-columns';
import { ViewMetrics, viewMetrics } from './view-metrics';
import { ViewScores, viewScores } from './view-scores';
import { PlaybackIdResolution } from './playback-id-resolver';
import { countryName, sourceDomain, sourceHostname, sourceType, streamType } from './view-source';
import { ViewState, isClosed, isStarted } from './view-state';

/** ClickHouse DateTime64(3, 'UTC') text, as the store reads and writes it: `2026-11-27 13:00:00.000`. */
export type DateTime64Text = string;

/** Columns of `views` computed by the builder (with the direct ones: `ViewRow`). */
export interface DerivedViewRow extends ViewMetrics, ViewScores {
  view_id: string;
  view_start: DateTime64Text;
  /** Null while the view is open: the Data API reads closed views only. */
  view_end: DateTime64Text | null;
  /** Server time of the last beacon: the sweeper's silence clock. */
  last_beacon_at: DateTime64Text;
  inserted_at: DateTime64Text;
  updated_at: DateTime64Text;
  /** ReplacingMergeTree version: 2 × events applied, + 1 once closed; grows with every change. */
  version: number;
  event_count: number;
  environment_id: string | null;
  asset_id: string | null;
  live_stream_id: string | null;
  view_session_id: string | null;
  country_name: string | null;
  player_source_url: string | null;
  player_source_host_name: string | null;
  player_source_domain: string | null;
  player_source_type: string | null;
  video_stream_type: string | null;
  video_source_bitrate_initial: number | null;
  video_source_width_initial: number | null;
  video_source_height_initial: number | null;
  video_source_fps_initial: number | null;
  video_codec_initial: string | null;
  player_error_code: string | null;
  player_error_message: string | null;
  player_error_context: string | null;
  /** `fatal` or `warning`: the view's error is its first fatal one, else its last warning. */
  player_error_severity: string | null;
  error_type_id: number | null;
  playback_failure_error_type_id: number | null;
  playback_business_exception_error_type_id: number | null;
  video_startup_business_exception_error_type_id: number | null;
  used_fullscreen: boolean;
  used_captions: boolean;
  used_pip: boolean;
}

/** One row of `views`: column names are Mux's video-view field names (plus the few documented in README.md). */
export type ViewRow = DirectViewRow & DerivedViewRow;

const DT = "DateTime64(3, 'UTC')";
const INT = 'Nullable(Int64)';
const FLOAT = 'Nullable(Float64)';
const STR = 'Nullable(String)';

const DERIVED_COLUMN_TYPES: Readonly<Record<keyof DerivedViewRow, string>> = {
  view_id: 'String',
  view_start: DT,
  view_end: `Nullable(${DT})`,
  last_beacon_at: DT,
  inserted_at: DT,
  updated_at: DT,
  version: 'UInt64',
  event_count: 'UInt32',
  environment_id: STR,
  asset_id: STR,
  live_stream_id: STR,
  view_session_id: STR,
  country_name: STR,
  player_source_url: STR,
  player_source_host_name: STR,
  player_source_domain: STR,
  player_source_type: STR,
  video_stream_type: STR,
  watch_time: INT,
  view_playing_time: INT,
  time_to_first_frame: INT,
  player_startup_time: INT,
  page_load_time: INT,
  aggregate_startup_time: INT,
  buffering_count: INT,
  buffering_duration: INT,
  buffering_rate: FLOAT,
  rebuffer_percentage: FLOAT,
  view_seek_count: INT,
  view_seek_duration: INT,
  seek_latency: FLOAT,
  upscale_percentage: FLOAT,
  downscale_percentage: FLOAT,
  view_max_upscale_percentage: FLOAT,
  view_max_downscale_percentage: FLOAT,
  weighted_average_bitrate: FLOAT,
  rendition_change_count: 'UInt32',
  rendition_upshift_count: 'UInt32',
  rendition_downshift_count: 'UInt32',
  video_source_bitrate_initial: INT,
  video_source_width_initial: INT,
  video_source_height_initial: INT,
  video_source_fps_initial: FLOAT,
  video_codec_initial: STR,
  player_error_code: STR,
  player_error_message: STR,
  player_error_context: STR,
  player_error_severity: STR,
  error_type_id: 'Nullable(UInt32)',
  playback_failure_error_type_id: 'Nullable(UInt32)',
  playback_business_exception_error_type_id: 'Nullable(UInt32)',
  video_startup_business_exception_error_type_id: 'Nullable(UInt32)',
  watched: 'Bool',
  exit_before_video_start: 'Bool',
  playback_failure: 'Bool',
  video_startup_failure: 'Bool',
  playback_business_exception: 'Bool',
  video_startup_business_exception: 'Bool',
  view_dropped: 'Bool',
  used_fullscreen: 'Bool',
  used_captions: 'Bool',
  used_pip: 'Bool',
  playback_score: FLOAT,
  startup_score: FLOAT,
  rebuffering_score: FLOAT,
  quality_score: FLOAT,
  viewer_experience_score: FLOAT,
};

/** Every column of `views` with its ClickHouse type, in table order. */
export const VIEW_COLUMN_TYPES: Readonly<Record<keyof ViewRow, string>> = {
  ...DERIVED_COLUMN_TYPES,
  ...(Object.fromEntries(Object.entries(DIRECT_COLUMNS).map(([column, [, kind]]) => [column, DIRECT_KIND_TYPES[kind]])) as Record<DirectColumn, string>),
};

export const VIEW_COLUMNS = Object.keys(VIEW_COLUMN_TYPES) as (keyof ViewRow)[];

export function formatDateTime64(ms: number): DateTime64Text {
  return new Date(ms).toISOString().replace('T', ' ').replace('Z', '');
}

function readDirect(kind: (typeof DIRECT_COLUMNS)[DirectColumn][1], value: BeaconValue | undefined): string | number | boolean | null {
  if (kind === 'string') return stringOf(value);
  if (kind === 'bool') return booleanOf(value);
  if (kind === 'int') return numberOf(value) === null ? null : Math.round(numberOf(value) as number);
  return numberOf(value);
}

/** The view's row, or undefined while it has no row yet (not started: no viewstart, no error). */
export function toViewRow(state: ViewState, resolution: PlaybackIdResolution | undefined, now: number): ViewRow | undefined {
  if (!isStarted(state) || state.lastReceivedAt === null) return undefined;
  const start = state.viewStartTime ?? state.fatalError?.eventTime ?? state.businessError?.eventTime ?? state.firstEventTime ?? state.lastReceivedAt;
  const f = state.fields;
  const direct = Object.fromEntries(
    (Object.keys(DIRECT_COLUMNS) as DirectColumn[]).map((column) => [column, readDirect(DIRECT_COLUMNS[column][1], f[beaconKeyOf(column)])]),
  ) as DirectViewRow;
  const metrics = viewMetrics(state);
  const closed = isClosed(state);
  const end = state.viewEndTime ?? (closed ? (state.lastEventTime ?? start) : null);
  const error = state.fatalError ?? state.businessError ?? state.lastWarning;
  const sourceUrl = stringOf(f.player_source_url) ?? stringOf(f.video_source_url);
  return {
    ...direct,
    ...metrics,
    ...viewScores(metrics),
    view_id: state.viewId,
    view_start: formatDateTime64(start),
    view_end: end === null ? null : formatDateTime64(Math.max(end, start)),
    last_beacon_at: formatDateTime64(state.lastReceivedAt),
    inserted_at: formatDateTime64(state.firstReceivedAt ?? state.lastReceivedAt),
    updated_at: formatDateTime64(now),
    version: state.appliedSequences.size * 2 + (closed ? 1 : 0),
    event_count: state.appliedSequences.size,
    environment_id: resolution?.environment_id ?? null,
    asset_id: resolution?.asset_id ?? null,
    live_stream_id: resolution?.live_stream_id ?? null,
    view_session_id: stringOf(f.view_session_id) ?? stringOf(f.session_id),
    country_name: countryName(stringOf(f.country_code)),
    player_source_url: sourceUrl,
    player_source_host_name: stringOf(f.video_source_hostname) ?? sourceHostname(sourceUrl),
    player_source_domain: stringOf(f.video_source_domain) ?? sourceDomain(sourceUrl),
    player_source_type: stringOf(f.video_source_mime_type) ?? sourceType(sourceUrl),
    video_stream_type: stringOf(f.video_stream_type) ?? streamType(booleanOf(f.video_source_is_live)),
    video_source_bitrate_initial: countOf(state.initial.video_source_bitrate),
    video_source_width_initial: countOf(state.initial.video_source_width),
    video_source_height_initial: countOf(state.initial.video_source_height),
    video_source_fps_initial: numberOf(state.initial.video_source_fps),
    video_codec_initial: stringOf(state.initial.video_source_codec),
    player_error_code: error?.code ?? null,
    player_error_message: error?.message ?? null,
    player_error_context: error?.context ?? null,
    player_error_severity: error?.severity ?? null,
    error_type_id: error?.errorTypeId ?? null,
    playback_failure_error_type_id: state.fatalError?.errorTypeId ?? null,
    playback_business_exception_error_type_id: state.businessError?.errorTypeId ?? null,
    video_startup_business_exception_error_type_id: state.businessError?.beforeFirstFrame ? state.businessError.errorTypeId : null,
    used_fullscreen: state.usedFullscreen,
    used_captions: state.usedCaptions,
    used_pip: state.usedPip,
  };
}
