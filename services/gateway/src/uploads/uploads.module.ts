import { Module } from '@nestjs/common';
import { OutboundModule } from '../outbound/outbound.module';
import { uploadsClientProvider } from './uploads-client';
import { UploadsController } from './uploads.controller';

@Module({ imports: [OutboundModule], controllers: [UploadsController], providers: [uploadsClientProvider] })
export class UploadsModule {}
