/** Spec 001 §1: the metric ids of the Data API. */
export const METRIC_IDS = [
  'aggregate_startup_time',
  'downscale_percentage',
  'exits_before_video_start',
  'max_downscale_percentage',
  'max_upscale_percentage',
  'page_load_time',
  'playback_failure_percentage',
  'playback_failure_score',
  'player_startup_time',
  'playing_time',
  'rebuffer_count',
  'rebuffer_duration',
  'rebuffer_frequency',
  'rebuffer_percentage',
  'rebuffer_score',
  'requests_for_first_preroll',
  'seek_latency',
  'startup_time_score',
  'unique_viewers',
  'upscale_percentage',
  'video_quality_score',
  'video_startup_preroll_load_time',
  'video_startup_preroll_request_time',
  'video_startup_time',
  'viewer_experience_score',
  'views',
  'weighted_average_bitrate',
] as const;
export type MetricId = (typeof METRIC_IDS)[number];

/** Spec 001 rule 1: metrics `metric_filters[]` may not name. */
export const UNFILTERABLE_METRICS: readonly string[] = ['exits_before_video_start', 'unique_viewers', 'video_startup_failure_percentage', 'views'];

/** Spec 001 rule 3: the filter names of `GET /data/v1/filters`, in its order. */
export const BASIC_FILTERS = [
  'browser',
  'operating_system',
  'player_remote_played',
  'player_software',
  'player_software_version',
  'player_svc_plugin_name',
  'player_svc_plugin_version',
  'player_autoplay',
  'player_preload',
  'video_title',
  'video_id',
  'stream_type',
  'source_type',
  'source_hostname',
  'continent_code',
  'country',
  'player_error_code',
] as const;

export const ADVANCED_FILTERS = [
  'browser_version',
  'operating_system_version',
  'viewer_device_name',
  'viewer_device_model',
  'viewer_device_category',
  'viewer_device_manufacturer',
  'player_name',
  'player_version',
  'video_series',
  'video_encoding_variant',
  'experiment_name',
  'sub_property_id',
  'asn',
  'cdn',
  'viewer_connection_type',
  'view_session_id',
  'region',
  'viewer_user_id',
  'exit_before_video_start',
  'preroll_ad_asset_hostname',
  'preroll_ad_tag_hostname',
  'preroll_played',
  'preroll_requested',
] as const;

/** Spec 001 §1: the dimension names (`group_by`, `dimension`, and `filters[]` keys). */
export const DIMENSIONS = [
  'asn',
  'asset_id',
  'browser',
  'browser_version',
  'cdn',
  'continent_code',
  'country',
  'exit_before_video_start',
  'experiment_name',
  'live_stream_id',
  'operating_system',
  'operating_system_version',
  'playback_id',
  'player_autoplay',
  'player_error_code',
  'player_svc_plugin_name',
  'player_svc_plugin_version',
  'player_name',
  'player_preload',
  'player_remote_played',
  'player_software',
  'player_software_version',
  'player_version',
  'preroll_ad_asset_hostname',
  'preroll_ad_tag_hostname',
  'preroll_played',
  'preroll_requested',
  'region',
  'source_hostname',
  'source_type',
  'stream_type',
  'sub_property_id',
  'video_encoding_variant',
  'video_id',
  'video_series',
  'video_title',
  'view_session_id',
  'viewer_connection_type',
  'viewer_device_category',
  'viewer_device_manufacturer',
  'viewer_device_model',
  'viewer_device_name',
  'viewer_user_id',
] as const;
export type Dimension = (typeof DIMENSIONS)[number];

/**
 * Other spellings callers use for a dimension: the spec writes the vendor word of the two plugin
 * dimensions as `svc`; Mux (and so its SDK users) write `mux`.
 */
export const DIMENSION_ALIASES: Readonly<Record<string, Dimension>> = {
  player_mux_plugin_name: 'player_svc_plugin_name',
  player_mux_plugin_version: 'player_svc_plugin_version',
};

const KNOWN_DIMENSIONS = new Set<string>(DIMENSIONS);

/** The dimension a name (or alias) stands for, or undefined. */
export function dimensionNamed(name: string): Dimension | undefined {
  if (KNOWN_DIMENSIONS.has(name)) return name as Dimension;
  return DIMENSION_ALIASES[name];
}
