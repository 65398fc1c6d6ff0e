import { Module } from '@nestjs/common';
import { AssetsModule } from '../assets/assets.module';
import { CLOCK, systemClock } from '../clock';
import { MasterAccessSweeper } from '../masters/master-access-sweeper';
import { MasterAccessService } from '../masters/master-access.service';
import { DownloadChanges } from './download-changes';
import { StaticRenditionProcessingGrpcController, StaticRenditionsGrpcController } from './static-renditions.grpc-controller';
import { StaticRenditionsService } from './static-renditions.service';

/** Static MP4 renditions and the temporary master MP4: their RPCs and the sweeper of expired masters. */
@Module({
  imports: [AssetsModule],
  controllers: [StaticRenditionsGrpcController, StaticRenditionProcessingGrpcController],
  providers: [DownloadChanges, StaticRenditionsService, MasterAccessService, MasterAccessSweeper, { provide: CLOCK, useValue: systemClock }],
})
export class StaticRenditionsModule {}
