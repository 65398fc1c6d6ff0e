import { Module } from '@nestjs/common';
import { CompletionModule } from '../completion/completion.module';
import { UploadsModule } from '../uploads/uploads.module';
import { ChunkReceiver } from './chunk-receiver.service';
import { UploadHostController } from './upload-host.controller';

/** The HTTP upload host on UPLOAD_PORT (this service's HTTP side). */
@Module({
  imports: [UploadsModule, CompletionModule],
  controllers: [UploadHostController],
  providers: [ChunkReceiver],
})
export class UploadHostModule {}
