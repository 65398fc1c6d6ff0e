import { Module } from '@nestjs/common';
import { SigningKeyRepository } from './signing-key.repository';
import { SigningKeysGrpcController } from './signing-keys.grpc-controller';
import { SigningKeysService } from './signing-keys.service';

@Module({
  controllers: [SigningKeysGrpcController],
  providers: [SigningKeysService, SigningKeyRepository],
  // the playback host verifies tokens with findActivePublicKey
  exports: [SigningKeysService],
})
export class SigningKeysModule {}
