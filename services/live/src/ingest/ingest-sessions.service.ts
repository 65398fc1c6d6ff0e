import path from 'node:path';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import { OBJECT_STORE, ObjectStore } from '@platform/storage';
import { LiveStreamsService } from '../live-streams/live-streams.service';
import { HlsPackager } from './hls-packager';
import { PublishSession, RtmpServer } from './rtmp-server';
import { streamKeyOf } from './stream-path';

/** How often running sessions are checked against their stream (key reset, disabled, deleted). */
export const SESSION_CHECK_MS = 1000;

interface Running {
  session: PublishSession;
  streamId: string;
  key: string;
  startedAt: Date;
  assetId: string;
  packager: HlsPackager;
}

/**
 * RTMP ingest on RTMP_PORT: an encoder publishing to `/app/{stream_key}` is let in only for a known
 * key of a stream that is not disabled; the stream is then `active` until the encoder leaves. A
 * running session is dropped within SESSION_CHECK_MS once its key is reset, its stream disabled or
 * deleted (checked against the database, so it holds whichever replica served the change), or it
 * reaches max_continuous_duration (a test stream is disabled after 5 minutes).
 */
@Injectable()
export class IngestSessions implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('RtmpIngest');
  private readonly running = new Map<string, Running>();
  /** Sessions that ended while still being admitted: their admission ends them once done. */
  private readonly endedEarly = new Set<string>();
  private server?: RtmpServer;
  private timer?: NodeJS.Timeout;

  constructor(
    @Inject(LiveStreamsService) private readonly streams: LiveStreamsService,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.server = new RtmpServer({
      port: this.config.rtmpPort,
      host: this.config.host,
      dataDir: this.config.dataDir,
      logLevel: this.config.logLevel,
      onPublish: (session) => void this.admit(session).catch((err: unknown) => this.fail(session, err)),
      onUnpublish: (session) => void this.end(session).catch((err: unknown) => this.logger.error(`ending session ${session.id}: ${String(err)}`)),
    });
    await this.server.start();
    this.timer = setInterval(() => void this.checkRunning(), SESSION_CHECK_MS);
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.server?.stop();
  }

  private async admit(session: PublishSession): Promise<void> {
    const key = streamKeyOf(session.streamPath);
    if (!key) return this.refuse(session, `not an ingest path (${session.streamPath}); publish to /app/{stream_key}`);
    const verdict = await this.streams.authorizePublish(key);
    if ('refused' in verdict) return this.refuse(session, verdict.refused);
    const { stream } = verdict;
    if ([...this.running.values()].some((r) => r.streamId === stream.id)) return this.refuse(session, 'the live stream already has an encoder');
    const assetId = await this.streams.createRecordingAsset(stream, 'rtmp');
    const packager = new HlsPackager(
      {
        ffmpegPath: this.config.media.ffmpegPath ?? 'ffmpeg',
        ffprobePath: this.config.media.ffprobePath ?? 'ffprobe',
        sourceUrl: `rtmp://127.0.0.1:${this.config.rtmpPort}/app/${key}`,
        workDir: path.join(this.config.dataDir, 'live', assetId),
        assetId,
        latencyMode: stream.latencyMode,
      },
      this.store,
    );
    this.running.set(session.id, { session, streamId: stream.id, key, startedAt: new Date(), assetId, packager });
    await this.streams.markActive(stream.id, 'rtmp', assetId);
    await packager.start();
    this.logger.log(`live stream ${stream.id}: encoder connected over RTMP, recording into asset ${assetId}`);
    if (this.endedEarly.delete(session.id)) await this.end(session);
  }

  private async end(session: PublishSession): Promise<void> {
    const running = this.running.get(session.id);
    if (!running) {
      this.endedEarly.add(session.id);
      setTimeout(() => this.endedEarly.delete(session.id), 60_000).unref();
      return;
    }
    this.running.delete(session.id);
    try {
      const summary = await running.packager.finish();
      if (summary.segments > 0) await this.streams.completeRecording(running.assetId, summary);
      this.logger.log(`live stream ${running.streamId}: recording ${running.assetId} finished (${summary.duration} s)`);
    } catch (err) {
      this.logger.error(`live stream ${running.streamId}: finishing recording ${running.assetId} failed: ${err instanceof Error ? err.message : String(err)}`);
    }
    await this.streams.markEnded(running.streamId);
    this.logger.log(`live stream ${running.streamId}: encoder disconnected`);
  }

  private async checkRunning(): Promise<void> {
    for (const running of [...this.running.values()]) {
      try {
        const end = await this.streams.sessionEnd(running.streamId, running.key, running.startedAt);
        if (end) {
          this.logger.log(`live stream ${running.streamId}: dropping its encoder (${end.reason})`);
          if (end.disable) await this.streams.disable(running.streamId);
          running.session.drop();
        }
      } catch (err) {
        this.logger.warn(`checking live stream ${running.streamId}: ${String(err)}`);
      }
    }
  }

  private refuse(session: PublishSession, reason: string): void {
    this.logger.warn(`refused an RTMP publish to ${session.streamPath.replace(/[^/]+$/, '…')}: ${reason}`);
    session.drop();
  }

  private fail(session: PublishSession, err: unknown): void {
    this.logger.error(`admitting an RTMP publish: ${err instanceof Error ? err.message : String(err)}`);
    session.drop();
  }
}
