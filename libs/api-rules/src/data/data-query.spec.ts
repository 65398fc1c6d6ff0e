import { ADVANCED_FILTERS, BASIC_FILTERS, DIMENSIONS, dimensionNamed } from './data-vocabulary';
import { parseDimensionFilter } from './dimension-filters';
import { parseMetricFilter } from './metric-filters';
import { parseTimeframe } from './timeframe';

const NOW = Date.UTC(2026, 10, 27, 12, 0, 0);
const NOW_S = NOW / 1000;

describe('timeframe[]', () => {
  it('defaults to the last 24 hours', () => {
    expect(parseTimeframe(undefined, NOW)).toEqual({ start: NOW_S - 86_400, end: NOW_S });
  });

  it('takes a duration ending now, in the units Mux documents', () => {
    expect(parseTimeframe(['24:hours'], NOW)).toEqual({ start: NOW_S - 86_400, end: NOW_S });
    expect(parseTimeframe(['7:days'], NOW)).toEqual({ start: NOW_S - 7 * 86_400, end: NOW_S });
    expect(parseTimeframe(['30:minutes'], NOW)).toEqual({ start: NOW_S - 1_800, end: NOW_S });
    expect(parseTimeframe(['1:hour'], NOW)).toEqual({ start: NOW_S - 3_600, end: NOW_S });
  });

  it('takes two epoch seconds, start before end', () => {
    expect(parseTimeframe(['1700000000', '1700003600'], NOW)).toEqual({ start: 1_700_000_000, end: 1_700_003_600 });
  });

  it('refuses anything else with a reason', () => {
    for (const bad of [['24:fortnights'], ['24'], ['0:hours'], ['-1:hours'], ['1700003600', '1700000000'], ['1700000000', 'soon'], ['1', '2', '3']]) {
      expect(typeof parseTimeframe(bad, NOW)).toBe('string');
    }
  });
});

describe('filters[]', () => {
  it('parses dimension:value and !dimension:value, the value keeping its colons', () => {
    expect(parseDimensionFilter('operating_system:windows')).toEqual({ dimension: 'operating_system', value: 'windows', negate: false });
    expect(parseDimensionFilter('!country:US')).toEqual({ dimension: 'country', value: 'US', negate: true });
    expect(parseDimensionFilter('video_title:a:b')).toEqual({ dimension: 'video_title', value: 'a:b', negate: false });
  });

  it("takes Mux's spelling of the plugin dimensions", () => {
    expect(parseDimensionFilter('player_mux_plugin_name:hls.js')).toEqual({ dimension: 'player_svc_plugin_name', value: 'hls.js', negate: false });
  });

  it('refuses unknown dimensions, missing values and the trace forms', () => {
    expect(parseDimensionFilter('colour:red')).toMatch(/not a dimension/);
    expect(parseDimensionFilter('country')).toMatch(/dimension:value/);
    expect(parseDimensionFilter('+cdn:fastly')).toMatch(/trace/);
    expect(parseDimensionFilter('cdn:[a,b]')).toMatch(/trace/);
  });
});

describe('metric_filters[]', () => {
  it('parses metric, operator and number', () => {
    expect(parseMetricFilter('aggregate_startup_time>=1000')).toEqual({ metric: 'aggregate_startup_time', operator: '>=', value: 1000 });
    expect(parseMetricFilter('rebuffer_percentage < 0.5')).toEqual({ metric: 'rebuffer_percentage', operator: '<', value: 0.5 });
  });

  it('refuses the metrics rule 1 excludes, unknown metrics and other shapes', () => {
    for (const excluded of ['exits_before_video_start', 'unique_viewers', 'video_startup_failure_percentage', 'views']) {
      expect(parseMetricFilter(`${excluded}>1`)).toMatch(/cannot be used/);
    }
    expect(parseMetricFilter('speed>1')).toMatch(/not a metric/);
    expect(parseMetricFilter('video_startup_time>=fast')).toMatch(/metric<op>number/);
  });
});

describe('vocabulary', () => {
  it('every filter name of rule 3 is a dimension of §1, and the lists do not overlap', () => {
    for (const name of [...BASIC_FILTERS, ...ADVANCED_FILTERS]) expect(dimensionNamed(name)).toBe(name);
    expect(BASIC_FILTERS.filter((b) => (ADVANCED_FILTERS as readonly string[]).includes(b))).toEqual([]);
    expect(BASIC_FILTERS).toHaveLength(17);
    expect(ADVANCED_FILTERS).toHaveLength(23);
    expect(DIMENSIONS).toHaveLength(43);
  });
});
