import { METRIC_IDS } from '@platform/api-rules';
import { VIEW_COLUMN_TYPES } from '../views/view-row';
import { METRIC_CATALOGUE, measurementFor } from './metric-catalogue';

const COLUMNS = new Set(Object.keys(VIEW_COLUMN_TYPES));
const identifiers = (sql: string) =>
  (sql.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? []).filter((word) => !['toFloat64', 'ifNull', 'IS', 'NOT', 'NULL', 'true'].includes(word));

describe('metric catalogue', () => {
  it('defines every metric id of spec 001, over columns of views only', () => {
    expect(Object.keys(METRIC_CATALOGUE).sort()).toEqual([...METRIC_IDS].sort());
    for (const definition of Object.values(METRIC_CATALOGUE)) {
      for (const sql of [definition.value, definition.counted, definition.ratio?.numerator ?? '', definition.ratio?.denominator ?? '']) {
        for (const word of identifiers(sql)) expect(COLUMNS).toContain(word);
      }
      expect(definition.measurements).toContain(definition.defaultMeasurement);
    }
  });

  it.each([
    ['playing_time', 'sum', 'view_start', 'milliseconds'],
    ['views', 'count', 'view_start', 'number'],
    ['unique_viewers', 'count', 'view_start', 'number'],
    ['video_startup_time', 'median', 'view_end', 'milliseconds'],
    ['aggregate_startup_time', 'median', 'view_end', 'milliseconds'],
    ['weighted_average_bitrate', 'median', 'view_end', 'number'],
    ['max_upscale_percentage', 'median', 'view_end', 'percentage'],
    ['rebuffer_percentage', 'avg', 'view_end', 'percentage'],
    ['rebuffer_frequency', 'avg', 'view_end', 'per_minute'],
    ['seek_latency', 'avg', 'view_end', 'milliseconds'],
    ['exits_before_video_start', 'avg', 'view_end', 'percentage'],
    ['viewer_experience_score', 'avg', 'view_end', 'score'],
  ])('%s: default %s, bucketed on %s, type %s (the SDK documents the defaults)', (id, measurement, basis, type) => {
    const definition = METRIC_CATALOGUE[id as keyof typeof METRIC_CATALOGUE];
    expect([definition.defaultMeasurement, definition.basis, definition.type]).toEqual([measurement, basis, type]);
  });

  it('startup counts only views that reached the first frame; failure shares count every view', () => {
    expect(METRIC_CATALOGUE.video_startup_time.counted).toBe('time_to_first_frame IS NOT NULL');
    expect(METRIC_CATALOGUE.playback_failure_percentage.counted).toBe('true');
    expect(METRIC_CATALOGUE.rebuffer_percentage.ratio).toEqual({ numerator: 'buffering_duration', denominator: 'watch_time' });
  });

  it('the measurement: the default when left out; count and sum refused on percentages and scores', () => {
    expect(measurementFor('video_startup_time', undefined)).toMatchObject({ measurement: 'median' });
    expect(measurementFor('video_startup_time', '95th')).toMatchObject({ measurement: '95th' });
    expect(measurementFor('rebuffer_count', 'sum')).toMatchObject({ measurement: 'sum' });
    expect(measurementFor('rebuffer_percentage', 'sum')).toBe('measurement: rebuffer_percentage takes avg, median, 95th, not "sum"');
    expect(measurementFor('viewer_experience_score', 'count')).toMatch(/takes avg, median, 95th/);
    expect(measurementFor('playback_failure_percentage', 'median')).toMatch(/takes avg,/);
    expect(measurementFor('views', 'avg')).toMatch(/takes count/);
    expect(measurementFor('toString', undefined)).toBe('"toString" is not a metric id');
  });
});
