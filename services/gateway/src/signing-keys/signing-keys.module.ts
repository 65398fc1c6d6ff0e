import { Module } from '@nestjs/common';
import { playbackAuth } from '@platform/proto';
import { serviceClientProvider } from '../grpc-clients/service-client';
import { SIGNING_KEYS_CLIENT, SigningKeysController } from './signing-keys.controller';

@Module({
  controllers: [SigningKeysController],
  providers: [serviceClientProvider(SIGNING_KEYS_CLIENT, 'playback-auth', playbackAuth.SIGNING_KEYS_SERVICE_NAME)],
})
export class SigningKeysModule {}
