import { Module } from '@nestjs/common';
import { StorageModule } from '@platform/storage';
import { LiveStreamsModule } from '../live-streams/live-streams.module';
import { IngestSessions } from './ingest-sessions.service';
import { SimulcastRelays } from './simulcast-relays.service';

/** The RTMP listener, the encoder sessions it admits and their simulcast relays. */
@Module({ imports: [LiveStreamsModule, StorageModule.forRoot()], providers: [IngestSessions, SimulcastRelays] })
export class IngestModule {}
