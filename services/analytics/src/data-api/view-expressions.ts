import { Dimension, MetricId } from '@platform/api-rules';

/**
 * The `views` column (or expression over it) behind each dimension, as a string: the filters
 * compare text and the value lists print it. Booleans read `true`/`false`, as Mux prints them.
 */
const column = (name: string) => name;
const text = (name: string) => `toString(${name})`;

export const DIMENSION_EXPRESSIONS: Readonly<Record<Dimension, string>> = {
  asn: text('asn'),
  asset_id: column('asset_id'),
  browser: column('viewer_application_name'),
  browser_version: column('viewer_application_version'),
  cdn: column('cdn'),
  continent_code: column('continent_code'),
  country: column('country_code'),
  exit_before_video_start: text('exit_before_video_start'),
  experiment_name: column('experiment_name'),
  live_stream_id: column('live_stream_id'),
  operating_system: column('viewer_os_family'),
  operating_system_version: column('viewer_os_version'),
  playback_id: column('playback_id'),
  player_autoplay: text('player_autoplay'),
  player_error_code: column('player_error_code'),
  player_svc_plugin_name: column('player_mux_plugin_name'),
  player_svc_plugin_version: column('player_mux_plugin_version'),
  player_name: column('player_name'),
  player_preload: text('player_preload'),
  player_remote_played: text('player_remote_played'),
  player_software: column('player_software'),
  player_software_version: column('player_software_version'),
  player_version: column('player_version'),
  preroll_ad_asset_hostname: column('preroll_ad_asset_hostname'),
  preroll_ad_tag_hostname: column('preroll_ad_tag_hostname'),
  preroll_played: text('preroll_played'),
  preroll_requested: text('preroll_requested'),
  region: column('region'),
  source_hostname: column('player_source_host_name'),
  source_type: column('player_source_type'),
  stream_type: column('video_stream_type'),
  sub_property_id: column('sub_property_id'),
  video_encoding_variant: column('video_encoding_variant'),
  video_id: column('video_id'),
  video_series: column('video_series'),
  video_title: column('video_title'),
  view_session_id: column('view_session_id'),
  viewer_connection_type: column('viewer_connection_type'),
  viewer_device_category: column('viewer_device_category'),
  viewer_device_manufacturer: column('viewer_device_manufacturer'),
  viewer_device_model: column('viewer_device_model'),
  viewer_device_name: column('viewer_device_name'),
  viewer_user_id: column('viewer_user_id'),
};

type FilterableMetric = Exclude<MetricId, 'exits_before_video_start' | 'unique_viewers' | 'views'>;

/**
 * The per-view value of each metric `metric_filters[]` may name (spec 001 rule 1). A view without
 * a value (NULL) matches no clause, as Mux counts a view in a metric only when it has a value.
 */
export const METRIC_VIEW_EXPRESSIONS: Readonly<Record<FilterableMetric, string>> = {
  aggregate_startup_time: 'aggregate_startup_time',
  downscale_percentage: 'downscale_percentage',
  max_downscale_percentage: 'view_max_downscale_percentage',
  max_upscale_percentage: 'view_max_upscale_percentage',
  page_load_time: 'page_load_time',
  playback_failure_percentage: 'toFloat64(playback_failure)',
  playback_failure_score: 'playback_score',
  player_startup_time: 'player_startup_time',
  playing_time: 'view_playing_time',
  rebuffer_count: 'buffering_count',
  rebuffer_duration: 'buffering_duration',
  rebuffer_frequency: 'buffering_rate',
  rebuffer_percentage: 'rebuffer_percentage',
  rebuffer_score: 'rebuffering_score',
  requests_for_first_preroll: 'requests_for_first_preroll',
  seek_latency: 'seek_latency',
  startup_time_score: 'startup_score',
  upscale_percentage: 'upscale_percentage',
  video_quality_score: 'quality_score',
  video_startup_preroll_load_time: 'video_startup_preroll_load_time',
  video_startup_preroll_request_time: 'video_startup_preroll_request_time',
  video_startup_time: 'time_to_first_frame',
  viewer_experience_score: 'viewer_experience_score',
  weighted_average_bitrate: 'weighted_average_bitrate',
};

export function dimensionExpression(dimension: string): string | undefined {
  return (DIMENSION_EXPRESSIONS as Record<string, string>)[dimension];
}

export function metricViewExpression(metric: string): string | undefined {
  return (METRIC_VIEW_EXPRESSIONS as Record<string, string>)[metric];
}
