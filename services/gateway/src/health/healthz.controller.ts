import { Controller, Get, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { z } from 'zod';
import { Public } from '../access-tokens/public.decorator';
import { ZodResponse } from '../validation/zod-decorators';
import { HealthReport, HealthzService } from './healthz.service';

const healthSchema = z.object({
  status: z.enum(['ok', 'unavailable']),
  services: z.record(z.string(), z.enum(['ok', 'not_serving', 'unavailable'])),
});

@ApiTags('Health')
@Controller()
export class HealthzController {
  constructor(private readonly healthz: HealthzService) {}

  @Public()
  @Get('healthz')
  @ApiOperation({ summary: 'Readiness of every service; no credentials needed' })
  @ZodResponse(200, 'Every service is ready', healthSchema)
  @ZodResponse(503, 'Some service is not ready; the map names it', healthSchema)
  async check(@Res({ passthrough: true }) res: Response): Promise<HealthReport> {
    const report = await this.healthz.report();
    res.status(report.status === 'ok' ? 200 : 503);
    return report;
  }
}
