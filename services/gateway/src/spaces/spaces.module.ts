import { Module } from '@nestjs/common';
import { spaces } from '@platform/proto';
import { serviceClientProvider } from '../grpc-clients/service-client';
import { SPACES_CLIENT, SpacesController } from './spaces.controller';

@Module({
  controllers: [SpacesController],
  providers: [serviceClientProvider(SPACES_CLIENT, 'spaces', spaces.SPACES_SERVICE_NAME)],
})
export class SpacesModule {}
