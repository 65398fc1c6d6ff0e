import { Controller, Get, Inject, Param } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ADVANCED_FILTERS, BASIC_FILTERS, dimensionNamed, parseTimeframe } from '@platform/api-rules';
import { analytics } from '@platform/proto';
import { firstValueFrom } from 'rxjs';
import { z } from 'zod';
import { ApiError } from '../errors/api-error';
import { pagingQuery } from '../validation/paging';
import { ZodQuery, ZodResponse } from '../validation/zod-decorators';
import { dataEnvelope, dataQueryFields, envelopeFields, resolveDataQuery, toGrpcDataQuery } from './data-query.schemas';
import { ANALYTICS_CLIENT } from './video-views.controller';

const valuesQuery = pagingQuery({ defaultLimit: 25, maxLimit: 1000 }).extend(dataQueryFields);
const filterNamesResponse = z.object({ data: z.object({ basic: z.array(z.string()), advanced: z.array(z.string()) }), ...envelopeFields });
const valuesResponse = z.object({ data: z.array(z.object({ value: z.string().nullable(), total_count: z.int() })), ...envelopeFields });

/**
 * Spec 001 §4 filters (deprecated) and their replacements, dimensions, as the SDK calls them:
 * the same names (rule 3) and the same value counts.
 */
@ApiTags('Dimensions')
@Controller('data/v1')
export class DimensionsController {
  constructor(@Inject(ANALYTICS_CLIENT) private readonly analytics: analytics.AnalyticsServiceClient) {}

  @Get('filters')
  @ApiOperation({ summary: 'List the filter names (deprecated: use GET /data/v1/dimensions)', deprecated: true })
  @ZodResponse(200, 'Basic and advanced filter names', filterNamesResponse)
  filters() {
    return this.names();
  }

  @Get('dimensions')
  @ApiOperation({ summary: 'List the dimension names' })
  @ZodResponse(200, 'Basic and advanced dimension names', filterNamesResponse)
  dimensions() {
    return this.names();
  }

  @Get('filters/:FILTER_ID')
  @ApiOperation({ summary: 'List the values of a filter with their view counts (deprecated: use GET /data/v1/dimensions/{id})', deprecated: true })
  @ZodResponse(200, 'Values, most views first', valuesResponse)
  filterValues(@Param('FILTER_ID') id: string, @ZodQuery(valuesQuery) raw: z.output<typeof valuesQuery>) {
    return this.values(id, raw);
  }

  @Get('dimensions/:DIMENSION_ID')
  @ApiOperation({ summary: 'List the values of a dimension with their view counts' })
  @ZodResponse(200, 'Values, most views first', valuesResponse)
  dimensionValues(@Param('DIMENSION_ID') id: string, @ZodQuery(valuesQuery) raw: z.output<typeof valuesQuery>) {
    return this.values(id, raw);
  }

  private names() {
    const { start, end } = parseTimeframe(undefined, Date.now()) as { start: number; end: number };
    return { data: { basic: [...BASIC_FILTERS], advanced: [...ADVANCED_FILTERS] }, total_row_count: null, timeframe: [start, end] };
  }

  private async values(id: string, raw: z.output<typeof valuesQuery>) {
    const dimension = dimensionNamed(id);
    if (!dimension) throw ApiError.invalid(`${id} is not a dimension (GET /data/v1/dimensions lists them)`);
    const query = resolveDataQuery(raw);
    const reply = await firstValueFrom(this.analytics.listDimensionValues({ dimension, query: toGrpcDataQuery(query), limit: raw.limit, page: raw.page }));
    return dataEnvelope(reply, query.timeframe);
  }
}
