import { Module } from '@nestjs/common';
import { uploadsClientProvider } from './uploads-client';
import { UploadsController } from './uploads.controller';

@Module({ controllers: [UploadsController], providers: [uploadsClientProvider] })
export class UploadsModule {}
