import { Inject, Injectable, Logger } from '@nestjs/common';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import { SimulcastTargetStates } from '../live-streams/simulcast-targets.service';
import { SimulcastRelay } from './simulcast-relay';

/**
 * The simulcast relays of live sessions: one per target of the stream while an encoder is on,
 * pulling the stream back from the local RTMP server. A target that failed fatally is not tried
 * again for the same recording (spec 2.3); every target is `idle` once the encoder is gone.
 */
@Injectable()
export class SimulcastRelays {
  private readonly logger = new Logger('Simulcast');

  constructor(
    @Inject(SimulcastTargetStates) private readonly states: SimulcastTargetStates,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
  ) {}

  /** Starts a relay for each target of the stream not in `skip` (fatal for this recording). */
  async start(liveStreamId: string, sourceUrl: string, skip: ReadonlySet<string>): Promise<SimulcastRelay[]> {
    const targets = (await this.states.targetsOf(liveStreamId)).filter((t) => !skip.has(t.id));
    return targets.map((target) => {
      const relay = new SimulcastRelay({
        ffmpegPath: this.config.media.ffmpegPath ?? 'ffmpeg',
        sourceUrl,
        target,
        onState: async (state) => {
          if (state.status === 'errored') this.logger.warn(`live stream ${liveStreamId}: simulcast target ${target.id} errored (${state.severity})`);
          await this.states.move(liveStreamId, target.id, state);
        },
      });
      relay.start();
      return relay;
    });
  }

  /** Stops the relays; their targets go `idle`, except fatal ones, returned (kept errored until the recording ends). */
  async stop(liveStreamId: string, relays: SimulcastRelay[]): Promise<string[]> {
    const fatal: string[] = [];
    await Promise.all(
      relays.map(async (relay) => {
        await relay.stop();
        if (relay.isFatal) fatal.push(relay.targetId);
        else await this.states.move(liveStreamId, relay.targetId, { status: 'idle' });
      }),
    );
    return fatal;
  }

  /** The recording is over: targets that failed fatally are `idle` again. */
  async release(liveStreamId: string, targetIds: Iterable<string>): Promise<void> {
    for (const id of targetIds) await this.states.move(liveStreamId, id, { status: 'idle' });
  }
}
