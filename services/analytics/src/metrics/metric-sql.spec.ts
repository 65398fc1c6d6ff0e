import { METRIC_CATALOGUE } from './metric-catalogue';
import { aggregateExpression, breakdownSql, defaultGranularity, insightsSql, overallSql, timeseriesSql } from './metric-sql';

const query = { timeframe: { start: 1000, end: 2000 }, filters: [{ dimension: 'country', value: "x' OR 1=1", negate: false }], metric_filters: [] };
const breakdown = { dimension: 'browser', orderBy: 'negative_impact' as const, direction: 'desc' as const, limit: 25, offset: 0 };

describe('metric SQL', () => {
  it.each([
    ['count', 'count()'],
    ['sum', 'sum(v)'],
    ['avg', 'avg(v)'],
    ['median', 'quantileExact(0.5)(v)'],
    ['95th', 'quantileExact(0.95)(v)'],
  ] as const)('%s → %s, NULL when no view has a value', (measurement, aggregate) => {
    expect(aggregateExpression(METRIC_CATALOGUE.video_startup_time, measurement)).toBe(`if(count() = 0, NULL, toFloat64(${aggregate}))`);
  });

  it('unique viewers count distinct ids; rebuffer percentage averages as a ratio of sums', () => {
    expect(aggregateExpression(METRIC_CATALOGUE.unique_viewers, 'count')).toContain('uniqExact(v)');
    expect(aggregateExpression(METRIC_CATALOGUE.rebuffer_percentage, 'avg')).toContain('sum(rn) / nullIf(sum(rd), 0)');
  });

  it('binds every value; quality metrics window on view_end, engagement ones on view_start', () => {
    const quality = overallSql(METRIC_CATALOGUE.video_startup_time, 'median', query);
    expect(quality.sql).not.toContain('OR 1=1');
    expect(quality.params).toMatchObject({ f0: "x' OR 1=1", tf_start: 1_000_000, tf_end: 2_000_000 });
    expect(quality.sql).toContain('view_end >= fromUnixTimestamp64Milli({tf_start:Int64})');
    expect(quality.sql).toContain('AND (time_to_first_frame IS NOT NULL)');
    expect(overallSql(METRIC_CATALOGUE.views, 'count', query).sql).toContain('view_start >= fromUnixTimestamp64Milli({tf_start:Int64})');
  });

  it('breakdown: the dimension column from the fixed table, order and page bound; negative impact signed by the worse side', () => {
    const sql = breakdownSql(METRIC_CATALOGUE.video_startup_time, 'median', query, breakdown);
    expect(sql.sql).toContain("ifNull(viewer_application_name, '') AS field");
    expect(sql.sql).toContain('ORDER BY negative_impact DESC NULLS LAST');
    expect(sql.sql).toContain('GROUP BY GROUPING SETS ((field), ())'); // the overall value in the same scan
    expect(sql.params).toMatchObject({ bd_sign: 1, bd_limit: 25, bd_offset: 0 });
    expect(breakdownSql(METRIC_CATALOGUE.viewer_experience_score, 'avg', query, breakdown).params.bd_sign).toBe(-1);
    expect(breakdownSql(METRIC_CATALOGUE.views, 'count', query, breakdown).params.bd_sign).toBe(0);
    expect(() => breakdownSql(METRIC_CATALOGUE.views, 'count', query, { ...breakdown, dimension: 'colour; DROP' })).toThrow(
      'group_by: colour; DROP is not a dimension',
    );
  });

  it('timeseries buckets by the interval in seconds (UTC-aligned)', () => {
    const sql = timeseriesSql(METRIC_CATALOGUE.views, 'count', query, 'hour');
    expect(sql.params.ts_step).toBe(3600);
    expect(sql.sql).toContain("toUnixTimestamp(toDateTime(view_start, 'UTC')) AS ts");
  });

  it('default granularity (spec 001 rule 2): ≤ 6 h ten minutes, ≤ 15 days hour, else day', () => {
    const tf = (seconds: number) => ({ start: 0, end: seconds });
    expect(defaultGranularity(tf(3600))).toBe('ten_minutes');
    expect(defaultGranularity(tf(6 * 3600))).toBe('ten_minutes');
    expect(defaultGranularity(tf(6 * 3600 + 1))).toBe('hour');
    expect(defaultGranularity(tf(15 * 86_400))).toBe('hour');
    expect(defaultGranularity(tf(15 * 86_400 + 1))).toBe('day');
  });
});

describe('insights SQL', () => {
  it('one scan over the basic-filter dimensions, names from the fixed list, values bound', () => {
    const sql = insightsSql(METRIC_CATALOGUE.video_startup_time, 'median', query, { direction: 'desc', overall: 1200, totalViews: 9 });
    expect(sql.sql).toContain("tuple('browser', toString(ifNull(viewer_application_name, '')))");
    expect(sql.sql).toContain('ORDER BY negative_impact_score DESC');
    expect(sql.params).toMatchObject({ in_overall: 1200, in_sign: 1, in_total: 9, f0: "x' OR 1=1" });
  });
});
