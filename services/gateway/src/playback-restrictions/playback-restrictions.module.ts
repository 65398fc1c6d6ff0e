import { Module } from '@nestjs/common';
import { playbackAuth } from '@platform/proto';
import { serviceClientProvider } from '../grpc-clients/service-client';
import { PLAYBACK_RESTRICTIONS_CLIENT, PlaybackRestrictionsController } from './playback-restrictions.controller';

@Module({
  controllers: [PlaybackRestrictionsController],
  providers: [serviceClientProvider(PLAYBACK_RESTRICTIONS_CLIENT, 'playback-auth', playbackAuth.PLAYBACK_RESTRICTIONS_SERVICE_NAME)],
})
export class PlaybackRestrictionsModule {}
