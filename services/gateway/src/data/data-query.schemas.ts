import { DimensionFilter, MetricFilter, parseDimensionFilter, parseMetricFilter, parseTimeframe, Timeframe } from '@platform/api-rules';
import { z } from 'zod';
import { ApiError } from '../errors/api-error';

/**
 * A repeated query parameter: the SDK sends arrays in brackets (`filters[]=a&filters[]=b`); a
 * hand-written URL may leave them out (`filters=a`). Both spellings are read, one or many values.
 */
const queryList = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]));

const MAX_CLAUSES = 30;

/** The query fields every Data API list shares (spec 001 §1 shared parameters). */
export const dataQueryFields = {
  'timeframe[]': queryList.meta({ description: 'Two epoch seconds (start, end), or one duration such as `24:hours` or `7:days`; default the last 24 hours' }),
  timeframe: queryList.meta({ description: 'Same as `timeframe[]`' }),
  'filters[]': queryList.meta({ description: '`dimension:value`, or `!dimension:value` to exclude' }),
  filters: queryList.meta({ description: 'Same as `filters[]`' }),
  'metric_filters[]': queryList.meta({ description: 'Clauses such as `aggregate_startup_time>=1000`' }),
  metric_filters: queryList.meta({ description: 'Same as `metric_filters[]`' }),
};

/** The shared fields, resolved: a window in epoch seconds and parsed clauses. */
export interface ResolvedDataQuery {
  timeframe: Timeframe;
  filters: DimensionFilter[];
  metricFilters: MetricFilter[];
}

type RawDataQuery = { [K in keyof typeof dataQueryFields]: string[] };

/**
 * Parses the shared fields of a type-checked query (the grammar checks need the whole list, so
 * they run after the zod pass); every refused clause is named: 400 `invalid_parameters`.
 */
export function resolveDataQuery(raw: RawDataQuery, nowMs = Date.now()): ResolvedDataQuery {
  const problems: string[] = [];
  const timeframe = parseTimeframe([...raw['timeframe[]'], ...raw.timeframe], nowMs);
  if (typeof timeframe === 'string') problems.push(`timeframe[]: ${timeframe}`);
  const filters = parseClauses([...raw['filters[]'], ...raw.filters], 'filters[]', parseDimensionFilter, problems);
  const metricFilters = parseClauses([...raw['metric_filters[]'], ...raw.metric_filters], 'metric_filters[]', parseMetricFilter, problems);
  if (typeof timeframe === 'string' || problems.length > 0) throw ApiError.invalid(...problems);
  return { timeframe, filters, metricFilters };
}

function parseClauses<T>(values: string[], field: string, parse: (raw: string) => T | string, problems: string[]): T[] {
  if (values.length > MAX_CLAUSES) {
    problems.push(`${field}: must have at most ${MAX_CLAUSES} entries`);
    return [];
  }
  const parsed: T[] = [];
  values.forEach((value, i) => {
    const result = parse(value);
    if (typeof result === 'string') problems.push(`${field}[${i}]: ${result}`);
    else parsed.push(result);
  });
  return parsed;
}

/** The gRPC form of a resolved query. */
export function toGrpcDataQuery(query: ResolvedDataQuery) {
  return { timeframe: query.timeframe, filters: query.filters, metric_filters: query.metricFilters };
}

/** The envelope of spec 001: `{ data, total_row_count, timeframe }`. */
export function dataEnvelope(reply: { data_json: string; total_row_count?: number | undefined }, timeframe: Timeframe) {
  return { data: JSON.parse(reply.data_json) as unknown, total_row_count: reply.total_row_count ?? null, timeframe: [timeframe.start, timeframe.end] };
}

export const envelopeFields = {
  total_row_count: z.int().nullable(),
  timeframe: z.array(z.int()).length(2).meta({ description: 'The window read: start and end, epoch seconds' }),
};
