import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { analytics } from '@platform/proto';
import { firstValueFrom } from 'rxjs';
import { z } from 'zod';
import { ZodResponse } from '../validation/zod-decorators';
import { envelopeFields } from './data-query.schemas';
import { ANALYTICS_CLIENT } from './video-views.controller';

/** Spec 001 §2.4 export day item. */
const exportDay = z.object({ export_date: z.string(), files: z.array(z.object({ version: z.int(), type: z.string(), path: z.string() })) });
type ExportDay = z.output<typeof exportDay>;

const exportDaysResponse = z.object({ data: z.array(exportDay), ...envelopeFields });
const exportUrlsResponse = z.object({ data: z.array(z.string()), ...envelopeFields });

/**
 * Spec 001 §4 exports: one gzipped CSV of the views that ended each day, made after the day by
 * the analytics service's scheduler, behind an expiring URL (the last 7 days are listed).
 */
@ApiTags('Exports')
@Controller('data/v1/exports')
export class ExportsController {
  constructor(@Inject(ANALYTICS_CLIENT) private readonly analytics: analytics.AnalyticsServiceClient) {}

  @Get('views')
  @ApiOperation({ summary: 'List the daily view exports' })
  @ZodResponse(200, 'Export days, newest first', exportDaysResponse)
  async views() {
    const days = await this.days();
    return { data: days, total_row_count: days.length, timeframe: timeframeOf(days) };
  }

  @Get()
  @ApiOperation({ summary: 'List the daily view export URLs (deprecated: use GET /data/v1/exports/views)', deprecated: true })
  @ZodResponse(200, 'Export file URLs, newest first', exportUrlsResponse)
  async list() {
    const days = await this.days();
    return { data: days.flatMap((d) => d.files.map((f) => f.path)), total_row_count: days.length, timeframe: timeframeOf(days) };
  }

  private async days(): Promise<ExportDay[]> {
    const reply = await firstValueFrom(this.analytics.listViewExports({}));
    return JSON.parse(reply.data_json) as ExportDay[];
  }
}

/** The days covered: from the oldest export's midnight to the end of the newest (now when there is none). */
function timeframeOf(days: ExportDay[]): [number, number] {
  if (days.length === 0) {
    const now = Math.floor(Date.now() / 1000);
    return [now, now];
  }
  const dates = days.map((d) => Date.parse(`${d.export_date}T00:00:00Z`) / 1000);
  return [Math.min(...dates), Math.max(...dates) + 86_400];
}
