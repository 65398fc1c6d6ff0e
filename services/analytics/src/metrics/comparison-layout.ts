import { MetricId } from '@platform/api-rules';
import { Measurement } from './metric-catalogue';

export interface ComparisonItem {
  metric: MetricId;
  name: string;
  /** Shown (and named) only where the entry picks a measurement other than by default. */
  measurement?: Measurement;
}

export interface ComparisonGroup extends ComparisonItem {
  items?: ComparisonItem[];
}

const SUFFIX: Partial<Record<Measurement, string>> = { median: '(median)', '95th': '(95th %)', avg: '(average)' };
const each = (metric: MetricId, name: string, measurements: Measurement[]): ComparisonItem[] =>
  measurements.map((measurement) => ({ metric, name: `${name} ${SUFFIX[measurement]}`, measurement }));

/**
 * The entries after `totals`, in the order and with the names of Mux's own comparison output
 * (mux-elixir's fixture, research §1); spec 001 rule 5 documents the views, viewer experience,
 * playback failure and startup time groups; the smoothness and quality groups follow the fixture.
 */
export const COMPARISON_LAYOUT: readonly ComparisonGroup[] = [
  { metric: 'views', name: 'Views' },
  { metric: 'viewer_experience_score', name: 'Overall Score' },
  { metric: 'playback_failure_score', name: 'Playback Failure Score', items: [{ metric: 'playback_failure_percentage', name: 'Playback Failure Percentage' }] },
  {
    metric: 'startup_time_score',
    name: 'Startup Time Score',
    items: [
      ...each('video_startup_time', 'Video Startup Time', ['median', '95th']),
      ...each('player_startup_time', 'Player Startup Time', ['median', '95th']),
      ...each('page_load_time', 'Page Load Time', ['median', '95th']),
      ...each('aggregate_startup_time', 'Aggregate Startup Time', ['median', '95th']),
      { metric: 'seek_latency', name: 'Seek Latency' },
      { metric: 'exits_before_video_start', name: 'Exits Before Video Start' },
    ],
  },
  {
    metric: 'rebuffer_score',
    name: 'Rebuffer Score',
    items: [
      { metric: 'rebuffer_percentage', name: 'Rebuffer Percentage' },
      { metric: 'rebuffer_frequency', name: 'Rebuffer Frequency' },
      ...each('rebuffer_duration', 'Rebuffer Duration', ['median', '95th']),
      ...each('rebuffer_count', 'Rebuffer Count', ['median', '95th']),
    ],
  },
  {
    metric: 'video_quality_score',
    name: 'Video Quality Score',
    items: [
      ...each('upscale_percentage', 'Upscale Percentage', ['median', '95th', 'avg']),
      ...each('downscale_percentage', 'Downscale Percentage', ['median', '95th', 'avg']),
      ...each('max_upscale_percentage', 'Max Upscale Percentage', ['median', '95th']),
      ...each('max_downscale_percentage', 'Max Downscale Percentage', ['median', '95th']),
    ],
  },
];
