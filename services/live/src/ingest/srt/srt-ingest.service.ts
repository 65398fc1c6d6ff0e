import { LiveMediaBinaries } from '../live-media-binaries';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import { LiveStreamIngest } from '../../live-streams/live-stream-ingest.service';
import { SrtBridgeTokens, SRT_BRIDGE_APP } from '../stream-path';
import { SrtAdmission, SrtFrontDoor } from './srt-front-door';
import { REJECT_FORBIDDEN } from './srt-packets';

/**
 * SRT ingest on SRT_PORT (UDP): `srt://host:SRT_PORT?streamid={stream_key}&passphrase={srt_passphrase}`.
 * A caller naming a known key of a stream that is not disabled is handed to a bridge that checks
 * the passphrase and republishes to the local RTMP server under a one-time token; from there the
 * session is the RTMP ingest's (IngestSessions), with `active_ingest_protocol: srt` and
 * `ingest_type: live_srt`. Unknown and disabled keys are rejected in the handshake.
 */
@Injectable()
export class SrtIngest implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('SrtIngest');
  private frontDoor?: SrtFrontDoor;

  constructor(
    @Inject(LiveStreamIngest) private readonly streams: LiveStreamIngest,
    @Inject(SrtBridgeTokens) private readonly tokens: SrtBridgeTokens,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
    @Inject(LiveMediaBinaries) private readonly binaries: LiveMediaBinaries,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.frontDoor = new SrtFrontDoor({
      port: this.config.srtPort,
      host: this.config.host,
      ffmpegPath: this.binaries.ffmpeg,
      admit: (key) => this.admit(key),
      log: (message) => this.logger.warn(message),
    });
    await this.frontDoor.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.frontDoor?.stop();
  }

  private async admit(streamKey: string | undefined): Promise<SrtAdmission> {
    if (!streamKey) return { reject: REJECT_FORBIDDEN, reason: 'no stream key in streamid' };
    const verdict = await this.streams.authorizePublish(streamKey);
    if ('refused' in verdict) return { reject: REJECT_FORBIDDEN, reason: verdict.refused };
    const token = this.tokens.issue(streamKey);
    return { passphrase: verdict.stream.srtPassphrase, publishUrl: `rtmp://127.0.0.1:${this.config.rtmpPort}/${SRT_BRIDGE_APP}/${token}` };
  }
}
