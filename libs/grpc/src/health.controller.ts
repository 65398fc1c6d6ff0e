import { Controller } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { GrpcMethod } from '@nestjs/microservices';
import { health } from '@platform/proto';
import { DataSource } from 'typeorm';
import { Readiness } from './readiness';

/** grpc.health.v1.Health, answered by every service: SERVING once its database answers and its own checks pass. */
@Controller()
export class HealthController {
  constructor(
    private readonly readiness: Readiness,
    private readonly moduleRef: ModuleRef,
  ) {}

  @GrpcMethod('Health', 'Check')
  async check(): Promise<health.HealthCheckResponse> {
    const ready = (await this.databaseAnswers()) && (await this.readiness.failing()).length === 0;
    return {
      status: ready ? health.HealthCheckResponse_ServingStatus.SERVING : health.HealthCheckResponse_ServingStatus.NOT_SERVING,
    };
  }

  private async databaseAnswers(): Promise<boolean> {
    let dataSource: DataSource;
    try {
      dataSource = this.moduleRef.get(DataSource, { strict: false });
    } catch {
      return true; // a service without a database
    }
    return (
      dataSource.isInitialized &&
      dataSource.query('SELECT 1').then(
        () => true,
        () => false,
      )
    );
  }
}
