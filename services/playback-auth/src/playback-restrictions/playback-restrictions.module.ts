import { Module } from '@nestjs/common';
import { PlaybackRestrictionRepository } from './playback-restriction.repository';
import { PlaybackRestrictionsGrpcController } from './playback-restrictions.grpc-controller';
import { PlaybackRestrictionsService } from './playback-restrictions.service';

@Module({
  controllers: [PlaybackRestrictionsGrpcController],
  providers: [PlaybackRestrictionsService, PlaybackRestrictionRepository],
  exports: [PlaybackRestrictionsService],
})
export class PlaybackRestrictionsModule {}
