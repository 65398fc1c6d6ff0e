import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { analytics } from '@platform/proto';
import { firstValueFrom } from 'rxjs';
import { z } from 'zod';
import { ZodQuery, ZodResponse } from '../validation/zod-decorators';
import { dataEnvelope, dataQueryFields, envelopeFields, resolveDataQuery, toGrpcDataQuery } from './data-query.schemas';
import { ANALYTICS_CLIENT } from './video-views.controller';

const errorListQuery = z.object(dataQueryFields);

/** Spec 001 §2.3. */
const playbackError = z.object({
  id: z.int(),
  code: z.int().nullable(),
  player_error_code: z.string().nullable(),
  message: z.string().nullable(),
  description: z.string().nullable(),
  notes: z.string().nullable(),
  percentage: z.number(),
  count: z.int(),
  last_seen: z.string(),
});
const errorListResponse = z.object({ data: z.array(playbackError), ...envelopeFields });

@ApiTags('Errors')
@Controller('data/v1/errors')
export class ErrorsController {
  constructor(@Inject(ANALYTICS_CLIENT) private readonly analytics: analytics.AnalyticsServiceClient) {}

  @Get()
  @ApiOperation({ summary: 'List the playback errors of the views that ended in the timeframe, most frequent first' })
  @ZodResponse(200, 'Errors with their share of views', errorListResponse)
  async list(@ZodQuery(errorListQuery) raw: z.output<typeof errorListQuery>) {
    const query = resolveDataQuery(raw);
    return dataEnvelope(await firstValueFrom(this.analytics.listErrors(toGrpcDataQuery(query))), query.timeframe);
  }
}
