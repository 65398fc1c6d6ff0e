import { z } from 'zod';
import { pagingQuery } from '../validation/paging';
import { dataQueryFields, envelopeFields } from './data-query.schemas';

const measurement = z
  .enum(['95th', 'median', 'avg', 'count', 'sum'])
  .optional()
  .meta({ description: "The metric's default when left out; count and sum are refused on percentages and scores" });

export const metricOverallQuery = z.object({ ...dataQueryFields, measurement });

export const metricBreakdownQuery = pagingQuery({ defaultLimit: 25, maxLimit: 1000 }).extend({
  ...dataQueryFields,
  measurement,
  group_by: z.string().min(1).max(100).meta({ description: 'A dimension name' }),
  order_by: z.enum(['negative_impact', 'value', 'views', 'field']).default('negative_impact'),
  order_direction: z.enum(['asc', 'desc']).default('desc'),
});

export const metricTimeseriesQuery = z.object({
  ...dataQueryFields,
  measurement,
  group_by: z
    .enum(['minute', 'ten_minutes', 'hour', 'day'])
    .optional()
    .meta({ description: 'Interval; default by the timeframe: ≤ 6 hours ten_minutes, ≤ 15 days hour, longer day' }),
  order_direction: z.enum(['asc', 'desc']).default('asc').meta({ description: 'By interval time' }),
});

const meta = z.object({ aggregation: z.string(), granularity: z.string().optional() });

/** Spec 001 §2.4. */
export const metricOverallResponse = z.object({
  data: z.object({
    value: z.number().nullable(),
    total_views: z.number(),
    total_watch_time: z.number(),
    total_playing_time: z.number(),
    global_value: z.number().nullable(),
  }),
  meta,
  ...envelopeFields,
});

export const metricBreakdownResponse = z.object({
  data: z.array(
    z.object({
      field: z.string().nullable(),
      value: z.number().nullable(),
      views: z.number(),
      negative_impact: z.number(),
      total_watch_time: z.number(),
      total_playing_time: z.number(),
    }),
  ),
  meta,
  ...envelopeFields,
});

export const metricTimeseriesResponse = z.object({
  data: z.array(z.array(z.string().nullable()).length(3)).meta({ description: '[interval start (ISO 8601), value, views with a value]' }),
  meta,
  ...envelopeFields,
});

export const metricInsightsQuery = z.object({
  ...dataQueryFields,
  measurement,
  order_direction: z.enum(['asc', 'desc']).default('desc').meta({ description: 'By negative impact: desc lists the worst first' }),
});

export const metricInsightsResponse = z.object({
  data: z.array(
    z.object({
      filter_column: z.string(),
      filter_value: z.string().nullable(),
      metric: z.number().nullable(),
      negative_impact_score: z.number(),
      total_views: z.number(),
      total_watch_time: z.number(),
      total_playing_time: z.number(),
    }),
  ),
  meta,
  ...envelopeFields,
});

export const metricComparisonQuery = z.object({
  ...dataQueryFields,
  dimension: z.string().min(1).max(100).optional().meta({ description: 'A dimension name' }),
  value: z.string().max(1024).optional().meta({ description: 'The value of the dimension to compare' }),
});

const comparisonItem = z.object({
  value: z.number().nullable(),
  type: z.string(),
  name: z.string(),
  metric: z.string(),
  measurement: z.string().optional(),
});
const comparisonTotals = z.object({
  name: z.literal('totals'),
  watch_time: z.number(),
  view_count: z.number(),
  started_views: z.number(),
  ended_views: z.number(),
  unique_viewers: z.number(),
  total_playing_time: z.number(),
});

export const metricComparisonResponse = z.object({
  data: z.array(z.union([comparisonTotals, comparisonItem.extend({ items: z.array(comparisonItem).optional() })])),
  ...envelopeFields,
});
