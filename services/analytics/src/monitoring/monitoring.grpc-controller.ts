import { Controller } from '@nestjs/common';
import { GrpcMethod } from '@nestjs/microservices';
import { dataRows } from '../data-rows';
import { analytics } from '@platform/proto';
import { MonitoringQuery } from './monitoring.query';

/** The monitoring RPCs of proto/analytics/v1/analytics.proto (Mux's real-time API). */
@Controller()
export class MonitoringGrpcController {
  constructor(private readonly monitoring: MonitoringQuery) {}

  @GrpcMethod(analytics.ANALYTICS_SERVICE_NAME, 'GetMonitoringBreakdown')
  async getMonitoringBreakdown(request: analytics.MonitoringRequest): Promise<analytics.DataRows> {
    return dataRows(await this.monitoring.breakdown(request));
  }

  @GrpcMethod(analytics.ANALYTICS_SERVICE_NAME, 'ListMonitoringTimeseries')
  async listMonitoringTimeseries(request: analytics.MonitoringRequest): Promise<analytics.DataRows> {
    return dataRows(await this.monitoring.timeseries(request));
  }

  @GrpcMethod(analytics.ANALYTICS_SERVICE_NAME, 'ListMonitoringBreakdownTimeseries')
  async listMonitoringBreakdownTimeseries(request: analytics.MonitoringRequest): Promise<analytics.DataRows> {
    return dataRows(await this.monitoring.breakdownTimeseries(request));
  }

  @GrpcMethod(analytics.ANALYTICS_SERVICE_NAME, 'ListMonitoringHistogram')
  async listMonitoringHistogram(request: analytics.MonitoringRequest): Promise<analytics.DataRows> {
    return dataRows(await this.monitoring.histogram(request));
  }
}
