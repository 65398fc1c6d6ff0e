import { Module } from '@nestjs/common';
import { StorageModule } from '@platform/storage';
import { LiveStreamsModule } from '../live-streams/live-streams.module';
import { IngestSessions } from './ingest-sessions.service';

/** The RTMP listener and the encoder sessions it admits. */
@Module({ imports: [LiveStreamsModule, StorageModule.forRoot()], providers: [IngestSessions] })
export class IngestModule {}
