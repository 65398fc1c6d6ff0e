import { Inject, Injectable } from '@nestjs/common';
import { SERVICE_NAMES } from '@platform/config';
import { health } from '@platform/proto';
import { firstValueFrom, timeout } from 'rxjs';
import { DataSource } from 'typeorm';
import { HEALTH_CLIENTS, HealthClients } from './health-clients';

export type ServiceState = 'ok' | 'not_serving' | 'unavailable';

export interface HealthReport {
  status: 'ok' | 'unavailable';
  services: Record<string, ServiceState>;
}

/** How long one service may take to answer its health check. */
export const HEALTH_CHECK_TIMEOUT_MS = 1_000;

/** `GET /healthz`: every service's grpc.health.v1 Check plus the gateway's own database. */
@Injectable()
export class HealthzService {
  constructor(
    @Inject(HEALTH_CLIENTS) private readonly clients: HealthClients,
    private readonly dataSource: DataSource,
  ) {}

  async report(): Promise<HealthReport> {
    const entries = await Promise.all([
      ...SERVICE_NAMES.map(async (name) => [name, await this.check(this.clients[name])] as const),
      this.databaseState().then((state) => ['gateway', state] as const),
    ]);
    const services = Object.fromEntries(entries);
    return { status: entries.every(([, state]) => state === 'ok') ? 'ok' : 'unavailable', services };
  }

  private async check(client: health.HealthClient): Promise<ServiceState> {
    try {
      const reply = await firstValueFrom(client.check({ service: '' }).pipe(timeout(HEALTH_CHECK_TIMEOUT_MS)));
      return reply.status === health.HealthCheckResponse_ServingStatus.SERVING ? 'ok' : 'not_serving';
    } catch {
      return 'unavailable';
    }
  }

  private async databaseState(): Promise<ServiceState> {
    if (!this.dataSource.isInitialized) return 'unavailable';
    return this.dataSource.query('SELECT 1').then(
      () => 'ok' as const,
      () => 'unavailable' as const,
    );
  }
}
