import { Controller } from '@nestjs/common';
import { GrpcMethod } from '@nestjs/microservices';
import { health } from '@platform/proto';
import { Readiness } from './readiness';

/** grpc.health.v1.Health, answered by every service. */
@Controller()
export class HealthController {
  constructor(private readonly readiness: Readiness) {}

  @GrpcMethod('Health', 'Check')
  async check(): Promise<health.HealthCheckResponse> {
    const failing = await this.readiness.failing();
    return {
      status: failing.length === 0 ? health.HealthCheckResponse_ServingStatus.SERVING : health.HealthCheckResponse_ServingStatus.NOT_SERVING,
    };
  }
}
