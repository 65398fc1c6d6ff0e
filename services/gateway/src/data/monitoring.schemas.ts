import { z } from 'zod';
import { dataQueryFields, envelopeFields } from './data-query.schemas';

const filters = { 'filters[]': dataQueryFields['filters[]'], filters: dataQueryFields.filters };
const timestamp = z.coerce.number().int().min(0).max(4_102_444_800).optional();
const ordering = {
  dimension: z.string().min(1).max(100).meta({ description: 'A monitoring dimension (GET …/dimensions lists them)' }),
  order_by: z.enum(['negative_impact', 'value', 'views', 'field']).default('negative_impact'),
  order_direction: z.enum(['asc', 'desc']).default('desc'),
};

export const monitoringBreakdownQuery = z.object({
  ...filters,
  ...ordering,
  timestamp: timestamp.meta({ description: 'The instant read (unix seconds); default now' }),
});

export const monitoringTimeseriesQuery = z.object({
  ...filters,
  timestamp: timestamp.meta({ description: 'The first instant (unix seconds); default 30 minutes ago; at most 6 hours back' }),
});

export const monitoringBreakdownTimeseriesQuery = z.object({
  ...filters,
  ...ordering,
  'timeframe[]': dataQueryFields['timeframe[]'],
  timeframe: dataQueryFields.timeframe,
  limit: z.coerce.number().int().min(1).max(100).default(10).meta({ description: 'Dimension values kept per instant' }),
});

export const monitoringHistogramQuery = z.object({ ...filters });

const named = z.array(z.object({ name: z.string(), display_name: z.string() }));
export const monitoringNamesResponse = z.object({ data: named, ...envelopeFields });

const breakdownValue = z.object({
  value: z.string().nullable(),
  metric_value: z.number().nullable(),
  concurrent_viewers: z.int(),
  starting_up_viewers: z.int(),
});

export const monitoringBreakdownResponse = z.object({ data: z.array(breakdownValue.extend({ negative_impact: z.number() })), ...envelopeFields });

export const monitoringTimeseriesResponse = z.object({
  data: z.array(z.object({ date: z.string(), value: z.number().nullable(), concurrent_viewers: z.int() })),
  ...envelopeFields,
});

export const monitoringBreakdownTimeseriesResponse = z.object({
  data: z.array(z.object({ date: z.string(), values: z.array(breakdownValue) })),
  ...envelopeFields,
});

export const monitoringHistogramResponse = z.object({
  data: z.array(
    z.object({
      timestamp: z.string(),
      sum: z.int(),
      average: z.number().nullable(),
      median: z.number().nullable(),
      p95: z.number().nullable(),
      max_percentage: z.number(),
      bucket_values: z.array(z.object({ count: z.int(), percentage: z.number() })),
    }),
  ),
  meta: z.object({ bucket_unit: z.string(), buckets: z.array(z.object({ start: z.number(), end: z.number().nullable() })) }),
  ...envelopeFields,
});
