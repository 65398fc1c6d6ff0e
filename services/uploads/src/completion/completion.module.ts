import { Module } from '@nestjs/common';
import { UploadsModule } from '../uploads/uploads.module';
import { AssetEventsConsumer } from './asset-events.consumer';
import { UploadCompletion } from './upload-completion.service';
import { UploadSweeper } from './upload-sweeper';

/** From the last byte to the asset: completion, its retries and timeouts (sweeper), asset errors. */
@Module({
  imports: [UploadsModule],
  providers: [UploadCompletion, UploadSweeper, AssetEventsConsumer],
  exports: [UploadCompletion],
})
export class CompletionModule {}
