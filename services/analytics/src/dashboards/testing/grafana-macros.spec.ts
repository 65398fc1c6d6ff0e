import { expandGrafanaSql, expandMacros, interpolateVariables } from './grafana-macros';

const ctx = { from: new Date('2026-11-20T00:00:00.500Z'), to: new Date('2026-11-21T00:00:00Z'), intervalSeconds: 300 };
const FROM = 1795132800;
const TO = 1795219200;

describe('Grafana macro expansion (as grafana-clickhouse-datasource does it)', () => {
  it('expands the time filters and bounds in Unix seconds or milliseconds', () => {
    expect(expandMacros('WHERE $__timeFilter(view_start) AND x', ctx)).toBe(
      `WHERE view_start >= toDateTime(${FROM}) AND view_start <= toDateTime(${TO}) AND x`,
    );
    expect(expandMacros('$__timeFilter_ms(t)', ctx)).toBe(`t >= fromUnixTimestamp64Milli(${FROM}500) AND t <= fromUnixTimestamp64Milli(${TO}000)`);
    expect(expandMacros('$__dateFilter(d)', ctx)).toBe("d >= toDate('2026-11-20') AND d <= toDate('2026-11-21')");
    expect(expandMacros('$__fromTime, $__toTime, $__fromTime_ms', ctx)).toBe(`toDateTime(${FROM}), toDateTime(${TO}), fromUnixTimestamp64Milli(${FROM}500)`);
  });

  it('expands the interval macros, never below one second', () => {
    expect(expandMacros('$__timeInterval(view_end) AS time', ctx)).toBe('toStartOfInterval(toDateTime(view_end), INTERVAL 300 second) AS time');
    expect(expandMacros('$__timeInterval(ifNull(a, b))', { ...ctx, intervalSeconds: 0.2 })).toBe(
      'toStartOfInterval(toDateTime(ifNull(a, b)), INTERVAL 1 second)',
    );
    expect(expandMacros('INTERVAL $__interval_s SECOND', ctx)).toBe('INTERVAL 300 SECOND');
  });

  it('refuses unknown macros and wrong argument counts', () => {
    expect(() => expandMacros('$__timeGroup(t, 1m)', ctx)).toThrow('unsupported macro $__timeGroup');
    expect(() => expandMacros('$__timeFilter(a, b)', ctx)).toThrow('takes 1 argument(s), got 2');
    expect(() => expandMacros('$__timeFilter', ctx)).toThrow('got 0');
    expect(() => expandMacros('$__timeFilter(a', ctx)).toThrow('unclosed');
  });

  it('interpolates $name and ${name}, leaves $__ names to the plugin, and refuses unknown variables', () => {
    expect(interpolateVariables("x = '${env}' AND $col > 0 AND $__timeFilter(t)", { env: 'e1', col: 'c' })).toBe("x = 'e1' AND c > 0 AND $__timeFilter(t)");
    expect(() => interpolateVariables('${nope}', {})).toThrow('unknown template variable $nope');
  });

  it('applies variables before macros', () => {
    expect(expandGrafanaSql('$__timeFilter(${column})', { ...ctx, variables: { column: 'view_end' } })).toBe(
      `view_end >= toDateTime(${FROM}) AND view_end <= toDateTime(${TO})`,
    );
  });
});
