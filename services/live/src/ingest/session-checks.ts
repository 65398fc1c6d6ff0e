import { Logger } from '@nestjs/common';
import { LiveStreamIngest } from '../live-streams/live-stream-ingest.service';
import { LiveStreamsService } from '../live-streams/live-streams.service';
import { IngestState } from './ingest-state';
import { LiveRecordings } from './live-recordings.service';
import { StreamTakeovers } from './stream-takeovers';

/** What the checks ask of the ingest that runs them. */
export interface CheckedIngest {
  /** `complete` was called on a stream this process records: its recording ends now. */
  complete(streamId: string): Promise<void>;
}

/**
 * What the ingest checks every SESSION_CHECK_MS against the database (so a change served by any
 * replica holds): its leases renewed, the recordings `complete` asked to end, and the running sessions
 * that must end (key reset, stream disabled or deleted, `max_continuous_duration`, 60 s after
 * `complete`; a test stream is disabled after 5 minutes live), whose encoders are dropped.
 */
export class SessionChecks {
  private readonly logger = new Logger('RtmpIngest');

  constructor(
    private readonly host: CheckedIngest,
    private readonly state: IngestState,
    private readonly takeovers: StreamTakeovers,
    private readonly ingest: LiveStreamIngest,
    private readonly streams: LiveStreamsService,
    private readonly recordings: LiveRecordings,
  ) {}

  async run(): Promise<void> {
    await this.takeovers.renewLeases();
    await this.recordings.renewPasses().catch((err: unknown) => this.logger.warn(`renewing final subtitle passes: ${String(err)}`));
    for (const streamId of [...this.state.held.keys()]) {
      try {
        if (await this.ingest.completionRequested(streamId)) await this.host.complete(streamId);
      } catch (err) {
        this.logger.warn(`completing live stream ${streamId}: ${String(err)}`);
      }
    }
    for (const running of [...this.state.running.values()]) {
      try {
        const end = await this.ingest.sessionEnd(running.streamId, running.key, running.startedAt);
        if (end) {
          this.logger.log(`live stream ${running.streamId}: dropping its encoder (${end.reason})`);
          running.endedBy = end.reason;
          if (end.disable) await this.streams.disable(running.streamId);
          running.session.drop();
        }
      } catch (err) {
        this.logger.warn(`checking live stream ${running.streamId}: ${String(err)}`);
      }
    }
  }
}
