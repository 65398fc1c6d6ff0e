import { Module } from '@nestjs/common';
import { healthClientsProvider } from './health-clients';
import { HealthzController } from './healthz.controller';
import { HealthzService } from './healthz.service';

@Module({ controllers: [HealthzController], providers: [healthClientsProvider, HealthzService] })
export class HealthzModule {}
