/**
 * Columns of `views` copied from one beacon key (carried forward, latest value), named as Mux
 * names the video-view field (`VideoViewResponse.Data`), with how the value is read.
 */
export type DirectKind = 'string' | 'int' | 'float' | 'bool';

const same = <K extends DirectKind>(kind: K) => [null, kind] as const;

export const DIRECT_COLUMNS = {
  env_key: same('string'),
  viewer_user_id: same('string'),
  mux_viewer_id: same('string'),
  session_id: same('string'),
  viewer_application_name: same('string'),
  viewer_application_version: same('string'),
  viewer_application_engine: same('string'),
  viewer_os_family: same('string'),
  viewer_os_version: same('string'),
  viewer_os_architecture: same('string'),
  viewer_device_category: same('string'),
  viewer_device_manufacturer: same('string'),
  viewer_device_model: same('string'),
  viewer_device_name: same('string'),
  viewer_user_agent: same('string'),
  viewer_connection_type: same('string'),
  country_code: same('string'),
  continent_code: same('string'),
  region: same('string'),
  city: same('string'),
  asn: same('int'),
  asn_name: same('string'),
  isp: same('string'),
  playback_id: same('string'),
  player_name: same('string'),
  player_version: same('string'),
  player_software: same('string'),
  player_software_version: same('string'),
  player_mux_plugin_name: same('string'),
  player_mux_plugin_version: same('string'),
  player_autoplay: ['player_autoplay_on', 'bool'],
  player_preload: ['player_preload_on', 'bool'],
  player_remote_played: same('bool'),
  player_width: same('int'),
  player_height: same('int'),
  player_language: ['player_language_code', 'string'],
  player_poster: ['video_poster_url', 'string'],
  player_instance_id: same('string'),
  player_source_duration: same('int'),
  player_view_count: same('int'),
  page_url: same('string'),
  page_type: same('string'),
  mux_api_version: same('string'),
  mux_embed: same('string'),
  mux_embed_version: same('string'),
  video_id: same('string'),
  video_title: same('string'),
  video_series: same('string'),
  video_duration: same('int'),
  video_content_type: same('string'),
  video_language: ['video_language_code', 'string'],
  video_variant_id: same('string'),
  video_variant_name: same('string'),
  video_encoding_variant: same('string'),
  video_producer: same('string'),
  video_affiliate: same('string'),
  video_brand: same('string'),
  video_creator_id: same('string'),
  cdn: ['video_cdn', 'string'],
  video_source_bitrate: same('int'),
  video_source_width: same('int'),
  video_source_height: same('int'),
  video_source_fps: same('float'),
  video_codec: ['video_source_codec', 'string'],
  experiment_name: same('string'),
  sub_property_id: same('string'),
  custom_1: same('string'),
  custom_2: same('string'),
  custom_3: same('string'),
  custom_4: same('string'),
  custom_5: same('string'),
  custom_6: same('string'),
  custom_7: same('string'),
  custom_8: same('string'),
  custom_9: same('string'),
  custom_10: same('string'),
  view_max_playhead_position: same('float'),
  view_total_content_playback_time: same('float'),
  view_total_upscaling: same('float'),
  view_total_downscaling: same('float'),
  view_content_startup_time: same('int'),
  view_dropped_frame_count: same('int'),
  view_average_request_latency: same('float'),
  view_average_request_throughput: same('float'),
  view_max_request_latency: same('float'),
  requests_for_first_preroll: ['view_preroll_request_count', 'int'],
  video_startup_preroll_load_time: ['view_startup_preroll_load_time', 'int'],
  video_startup_preroll_request_time: ['view_startup_preroll_request_time', 'int'],
  preroll_requested: ['view_preroll_requested', 'bool'],
  preroll_played: ['view_preroll_played', 'bool'],
  preroll_ad_asset_hostname: ['view_preroll_ad_asset_hostname', 'string'],
  preroll_ad_tag_hostname: ['view_preroll_ad_tag_hostname', 'string'],
} as const satisfies Record<string, readonly [string | null, DirectKind]>;

export type DirectColumn = keyof typeof DIRECT_COLUMNS;

type KindValue<K extends DirectKind> = K extends 'string' ? string : K extends 'bool' ? boolean : number;

export type DirectViewRow = { -readonly [C in DirectColumn]: KindValue<(typeof DIRECT_COLUMNS)[C][1]> | null };

/** The beacon key a direct column reads (its own name unless Mux renamed it). */
export function beaconKeyOf(column: DirectColumn): string {
  return DIRECT_COLUMNS[column][0] ?? column;
}

export const DIRECT_KIND_TYPES: Readonly<Record<DirectKind, string>> = {
  string: 'Nullable(String)',
  int: 'Nullable(Int64)',
  float: 'Nullable(Float64)',
  bool: 'Nullable(Bool)',
};
