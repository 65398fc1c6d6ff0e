import { MetricId } from '@platform/api-rules';

export const MEASUREMENTS = ['95th', 'median', 'avg', 'count', 'sum'] as const;
export type Measurement = (typeof MEASUREMENTS)[number];

export type MetricType = 'number' | 'milliseconds' | 'percentage' | 'score' | 'per_minute';

/** `view_start` for engagement metrics, `view_end` for quality of experience (spec 001 §1). */
export type AggregationBasis = 'view_start' | 'view_end';

export interface MetricDefinition {
  type: MetricType;
  /** The per-view value (an expression over `views`). */
  value: string;
  /** The views that have a value: only they count in the metric (and in its `views`). */
  counted: string;
  defaultMeasurement: Measurement;
  measurements: readonly Measurement[];
  basis: AggregationBasis;
  /** Which way is worse, for negative impact; engagement metrics have none. */
  worse: 'higher' | 'lower' | null;
  /** `avg` as a ratio of sums over the counted views instead of the mean of per-view values. */
  ratio?: { numerator: string; denominator: string };
  /** `count` is of distinct values (unique viewers). */
  distinct?: boolean;
}

const ALL: readonly Measurement[] = MEASUREMENTS;
const SPREAD: readonly Measurement[] = ['avg', 'median', '95th'];
const present = (column: string) => `${column} IS NOT NULL`;

/** A per-view number, milliseconds or count: every measurement makes sense; median by default. */
const numeric = (
  type: 'number' | 'milliseconds',
  column: string,
  worse: 'higher' | 'lower' = 'higher',
  fallback: Measurement = 'median',
): MetricDefinition => ({
  type,
  value: column,
  counted: present(column),
  defaultMeasurement: fallback,
  measurements: ALL,
  basis: 'view_end',
  worse,
});

/** A per-view fraction (0–1): a mean or a percentile; a count or a sum of fractions means nothing. */
const fraction = (column: string, fallback: Measurement = 'avg'): MetricDefinition => ({
  type: 'percentage',
  value: column,
  counted: present(column),
  defaultMeasurement: fallback,
  measurements: SPREAD,
  basis: 'view_end',
  worse: 'higher',
});

/** A share of views (a per-view flag): only its mean, the fraction of views flagged, is defined. */
const share = (flag: string, counted = 'true'): MetricDefinition => ({
  type: 'percentage',
  value: `toFloat64(${flag})`,
  counted,
  defaultMeasurement: 'avg',
  measurements: ['avg'],
  basis: 'view_end',
  worse: 'higher',
});

const score = (column: string): MetricDefinition => ({
  type: 'score',
  value: column,
  counted: present(column),
  defaultMeasurement: 'avg',
  measurements: SPREAD,
  basis: 'view_end',
  worse: 'lower',
});

/**
 * The 27 metrics of spec 001 over the `views` columns (views/README.md: percentages are fractions,
 * scores 0–1, buffering_rate per minute). Defaults are those the Mux SDK documents (research §1).
 */
export const METRIC_CATALOGUE: Readonly<Record<MetricId, MetricDefinition>> = {
  views: { type: 'number', value: '1', counted: 'true', defaultMeasurement: 'count', measurements: ['count'], basis: 'view_start', worse: null },
  unique_viewers: {
    type: 'number',
    value: 'ifNull(viewer_user_id, mux_viewer_id)',
    counted: 'ifNull(viewer_user_id, mux_viewer_id) IS NOT NULL',
    defaultMeasurement: 'count',
    measurements: ['count'],
    basis: 'view_start',
    worse: null,
    distinct: true,
  },
  playing_time: { ...numeric('milliseconds', 'view_playing_time', 'lower', 'sum'), basis: 'view_start', worse: null },
  video_startup_time: numeric('milliseconds', 'time_to_first_frame'),
  player_startup_time: numeric('milliseconds', 'player_startup_time'),
  page_load_time: numeric('milliseconds', 'page_load_time'),
  aggregate_startup_time: numeric('milliseconds', 'aggregate_startup_time'),
  seek_latency: { ...numeric('milliseconds', 'seek_latency', 'higher', 'avg'), measurements: SPREAD },
  video_startup_preroll_load_time: numeric('milliseconds', 'video_startup_preroll_load_time'),
  video_startup_preroll_request_time: numeric('milliseconds', 'video_startup_preroll_request_time'),
  requests_for_first_preroll: numeric('number', 'requests_for_first_preroll'),
  rebuffer_count: numeric('number', 'buffering_count'),
  rebuffer_duration: numeric('milliseconds', 'buffering_duration'),
  weighted_average_bitrate: numeric('number', 'weighted_average_bitrate', 'lower'),
  rebuffer_frequency: {
    ...fraction('buffering_rate'),
    type: 'per_minute',
    ratio: { numerator: 'buffering_count', denominator: 'watch_time / 60000' },
  },
  rebuffer_percentage: { ...fraction('rebuffer_percentage'), ratio: { numerator: 'buffering_duration', denominator: 'watch_time' } },
  upscale_percentage: fraction('upscale_percentage'),
  downscale_percentage: fraction('downscale_percentage'),
  max_upscale_percentage: fraction('view_max_upscale_percentage', 'median'),
  max_downscale_percentage: fraction('view_max_downscale_percentage', 'median'),
  exits_before_video_start: share('exit_before_video_start'),
  playback_failure_percentage: share('playback_failure'),
  playback_failure_score: score('playback_score'),
  startup_time_score: score('startup_score'),
  rebuffer_score: score('rebuffering_score'),
  video_quality_score: score('quality_score'),
  viewer_experience_score: score('viewer_experience_score'),
};

/** The metric's definition, or undefined for a name outside the catalogue. */
export function metricDefinition(id: string): MetricDefinition | undefined {
  return Object.hasOwn(METRIC_CATALOGUE, id) ? METRIC_CATALOGUE[id as MetricId] : undefined;
}

/** The measurement asked for (or the metric's default), or why it is refused. */
export function measurementFor(id: string, asked: string | undefined): { definition: MetricDefinition; measurement: Measurement } | string {
  const definition = metricDefinition(id);
  if (!definition) return `${JSON.stringify(id)} is not a metric id`;
  if (asked === undefined || asked === '') return { definition, measurement: definition.defaultMeasurement };
  if (!definition.measurements.includes(asked as Measurement)) {
    return `measurement: ${id} takes ${definition.measurements.join(', ')}, not ${JSON.stringify(asked)}`;
  }
  return { definition, measurement: asked as Measurement };
}
