import { LiveMediaBinaries } from './live-media-binaries';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import { OutboundPolicy } from '../live-streams/outbound-policy';
import { SimulcastTargetStates } from '../live-streams/simulcast-targets.service';
import { RtmpKeyProxy } from './rtmp-key-proxy';
import { rtmpTargetOf, standIn } from './rtmp-target';
import { RelayEndpoint, RelayTarget, SimulcastRelay } from './simulcast-relay';

/** The application and URL ffmpeg is given: the key proxy ignores both (it sends the target's). */
const LOCAL_APP = 'relay';

/**
 * The simulcast relays of live sessions: one per target of the stream while an encoder is on,
 * pulling the stream back from the local RTMP server. A target that failed fatally is not tried
 * again for the same recording (spec 2.3); every target is `idle` once the encoder is gone.
 *
 * Each attempt resolves the target's host through the outbound guard (OUTBOUND_ALLOW; never the
 * platform's own RTMP ingest) and connects to the address it checked, through a key proxy
 * (RtmpKeyProxy): ffmpeg publishes to the proxy under a stand-in name, so the target's stream key
 * is never on a command line. A refused target is `errored` (fatal) with the reason logged.
 */
@Injectable()
export class SimulcastRelays {
  private readonly logger = new Logger('Simulcast');
  /** Local ports of the relays' connections to their targets (a publish from one of them is a relay loop). */
  private readonly upstreamPorts = new Set<number>();

  constructor(
    @Inject(SimulcastTargetStates) private readonly states: SimulcastTargetStates,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
    @Inject(OutboundPolicy) private readonly outbound: OutboundPolicy,
    @Inject(LiveMediaBinaries) private readonly binaries: LiveMediaBinaries,
  ) {}

  /** Starts a relay for each target of the stream not in `skip` (fatal for this recording). */
  async start(liveStreamId: string, sourceUrl: string, skip: ReadonlySet<string>): Promise<SimulcastRelay[]> {
    const targets = (await this.states.targetsOf(liveStreamId)).filter((t) => !skip.has(t.id));
    return targets.map((target) => {
      const relay = new SimulcastRelay({
        ffmpegPath: this.binaries.ffmpeg,
        sourceUrl,
        target,
        open: () => this.open(target),
        onState: async (state) => {
          if (state.status === 'errored') {
            const why = state.reason ? `: ${redact(state.reason, target)}` : '';
            this.logger.warn(`live stream ${liveStreamId}: simulcast target ${target.id} errored (${state.severity})${why}`);
          }
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

  /**
   * A recording taken over from a gone process: its targets are idle again (its relays went with
   * it), except those that failed fatally, returned (kept errored until the recording ends).
   */
  async resetTargets(liveStreamId: string): Promise<string[]> {
    const fatal: string[] = [];
    for (const target of await this.states.targetsOf(liveStreamId)) {
      if (target.status === 'errored' && target.errorSeverity === 'fatal') fatal.push(target.id);
      else await this.states.move(liveStreamId, target.id, { status: 'idle' });
    }
    return fatal;
  }

  /** Whether a connection from this loopback port is one of the relays' own (a target looping back into the ingest). */
  isRelayConnection(remoteAddress: string, remotePort: number): boolean {
    return this.upstreamPorts.has(remotePort) && this.outbound.isOwnIngest(remoteAddress, this.config.rtmpPort);
  }

  private async open(target: RelayTarget): Promise<RelayEndpoint> {
    const t = rtmpTargetOf(target.url, target.streamKey);
    const { address } = await this.outbound.resolveTarget(t.host, t.port);
    const alias = standIn(Buffer.byteLength(t.streamName));
    let upstreamPort: number | undefined;
    const proxy = await RtmpKeyProxy.listen({
      address,
      host: t.host,
      port: t.port,
      tls: t.tls,
      standIn: alias,
      streamName: t.streamName,
      onUpstream: (port) => this.upstreamPorts.add((upstreamPort = port)),
    });
    return {
      output: ['-rtmp_app', t.app, '-rtmp_tcurl', t.tcUrl, '-rtmp_playpath', alias, `rtmp://127.0.0.1:${proxy.port}/${LOCAL_APP}`],
      close: () => {
        proxy.close();
        if (upstreamPort !== undefined) this.upstreamPorts.delete(upstreamPort);
      },
    };
  }
}

/** What a third party or ffmpeg said may echo the stream key: it is taken out before logging. */
function redact(text: string, target: RelayTarget): string {
  return target.streamKey ? text.split(target.streamKey).join('…') : text;
}
