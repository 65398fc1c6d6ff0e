/**
 * Mux Data's monitoring API (`/data/v1/monitoring/…`, and the deprecated `/data/v1/realtime/…` it
 * replaced; spec 001 rule 6: not shown, so names and display names follow Mux's own fixtures:
 * mux-elixir `lib/mux/support/fixtures.ex`, and `@mux/mux-node`'s metric id unions).
 */
export const MONITORING_METRICS = [
  { name: 'current-concurrent-viewers', display_name: 'Current Concurrent Viewers (CCV)' },
  { name: 'current-rebuffering-percentage', display_name: 'Current Rebuffering Percentage' },
  { name: 'exits-before-video-start', display_name: 'Exits Before Video Start' },
  { name: 'playback-failure-percentage', display_name: 'Playback Failure Percentage' },
  { name: 'current-average-bitrate', display_name: 'Current Average Bitrate' },
  { name: 'video-startup-failure-percentage', display_name: 'Video Startup Failure Percentage' },
] as const;
export type MonitoringMetricId = (typeof MONITORING_METRICS)[number]['name'];

/** The one histogram metric, listed with the others by the metrics call. */
export const MONITORING_HISTOGRAM_METRIC = { name: 'video-startup-time', display_name: 'Video Startup Time' } as const;

/** Startup-time buckets in milliseconds (the last open-ended), as Mux's fixture lists them. */
export const MONITORING_HISTOGRAM_BUCKETS: readonly { start: number; end: number | null }[] = [
  { start: 0, end: 100 },
  { start: 100, end: 500 },
  { start: 500, end: 1000 },
  { start: 1000, end: 2000 },
  { start: 2000, end: 5000 },
  { start: 5000, end: 10000 },
  { start: 10000, end: null },
];

/** The dimensions monitoring breaks down by (names of spec 001 §1). */
export const MONITORING_DIMENSIONS = [
  { name: 'asn', display_name: 'ASN' },
  { name: 'cdn', display_name: 'CDN' },
  { name: 'country', display_name: 'Country' },
  { name: 'operating_system', display_name: 'Operating system' },
  { name: 'player_name', display_name: 'Player name' },
  { name: 'region', display_name: 'Region / State' },
  { name: 'stream_type', display_name: 'Stream type' },
  { name: 'sub_property_id', display_name: 'Sub property ID' },
  { name: 'video_series', display_name: 'Video series' },
  { name: 'video_title', display_name: 'Video title' },
] as const;

/** Points of the monitoring timeseries are this many seconds apart (Mux's fixture: 5 s). */
export const MONITORING_STEP_SECONDS = 5;
/** The timeseries' default start: 30 minutes back. */
export const MONITORING_TIMESERIES_SECONDS = 30 * 60;
/** The breakdown timeseries' default window: 5 minutes ending 15 s ago (Mux's changelog, 2023-05-26). */
export const MONITORING_BREAKDOWN_WINDOW_SECONDS = 5 * 60;
export const MONITORING_BREAKDOWN_LAG_SECONDS = 15;

export const isMonitoringMetric = (name: string): name is MonitoringMetricId => MONITORING_METRICS.some((m) => m.name === name);
export const isMonitoringDimension = (name: string): boolean => MONITORING_DIMENSIONS.some((d) => d.name === name);
