import { Module } from '@nestjs/common';
import { StorageModule } from '@platform/storage';
import { LiveStreamsModule } from '../live-streams/live-streams.module';
import { IngestSessions } from './ingest-sessions.service';
import { LiveRecordings } from './live-recordings.service';
import { FinalSubtitlePasses } from './final-subtitle-passes';
import { SimulcastRelays } from './simulcast-relays.service';
import { SrtIngest } from './srt/srt-ingest.service';
import { SrtBridgeTokens } from './stream-path';
import { LiveMediaBinaries } from './live-media-binaries';

/** The RTMP listener, the SRT front door, the encoder sessions they admit and their simulcast relays. */
@Module({
  imports: [LiveStreamsModule, StorageModule.forRoot()],
  providers: [
    LiveMediaBinaries,
    IngestSessions,
    LiveRecordings,
    FinalSubtitlePasses,
    SimulcastRelays,
    SrtIngest,
    { provide: SrtBridgeTokens, useValue: new SrtBridgeTokens() },
  ],
})
export class IngestModule {}
