import { MediaStream, type MediaStreamTrack, RTCPeerConnection, type RTCRtpTransceiver, RtcpPayloadSpecificFeedback, RTP_EXTENSION_URI } from 'werift';
import type { IceCandidateMessage, PeerRole, SubscribedTrack } from './signaling-messages';
import type { SfuPeer, SfuPeerEvents } from './sfu';
import { PublishedTrack } from './werift-published-track';

/** RTCP payload-specific feedback format of a Full Intra Request (RFC 5104), which werift does not name. */
const FIR_FORMAT = 4;

/** What a peer needs from its room and SFU. */
export interface WeriftPeerContext {
  peerConfig(): ConstructorParameters<typeof RTCPeerConnection>[0];
  maxPublishedTracks: number;
  keyframeIntervalMs: number;
  /** Every track published in the room by the other peers. */
  tracksFor(peerId: string): PublishedTrack[];
  published(track: PublishedTrack): void;
  left(peer: WeriftPeer): void;
}

interface Subscription {
  transceiver: RTCRtpTransceiver;
  stopForwarding: () => void;
  negotiated: boolean;
}

export class WeriftPeer implements SfuPeer {
  readonly published: PublishedTrack[] = [];
  private publishPc: RTCPeerConnection | null = null;
  private subscribePc: RTCPeerConnection | null = null;
  private readonly subscriptions = new Map<PublishedTrack, Subscription>();
  private offerInFlight = false;
  private offerWanted = false;
  private offerScheduled = false;
  private closed = false;

  constructor(
    readonly id: string,
    private readonly events: SfuPeerEvents,
    private readonly context: WeriftPeerContext,
  ) {}

  async publish(offerSdp: string): Promise<string> {
    const mediaSections = offerSdp.split(/\r?\n/).filter((line) => line.startsWith('m=')).length;
    if (mediaSections > this.context.maxPublishedTracks) throw new Error(`at most ${this.context.maxPublishedTracks} published tracks`);
    const pc = this.publishPc ?? this.openPublishPc();
    await pc.setRemoteDescription({ type: 'offer', sdp: offerSdp });
    await pc.setLocalDescription(await pc.createAnswer());
    return pc.localDescription?.sdp ?? '';
  }

  async subscribe(): Promise<void> {
    if (this.subscribePc) return;
    const pc = new RTCPeerConnection(this.context.peerConfig());
    this.subscribePc = pc;
    // A data channel gives the PeerConnection a transport to connect before any track is forwarded.
    pc.createDataChannel('spaces');
    pc.connectionStateChange.subscribe((state) => {
      if (state === 'connected') for (const track of this.subscriptions.keys()) track.requestKeyframe();
      this.events.connectionState('subscribe', state);
    });
    await this.sendOffer();
  }

  async acceptSubscribeAnswer(answerSdp: string): Promise<void> {
    const pc = this.subscribePc;
    if (!pc || !this.offerInFlight) throw new Error('no subscribe offer is waiting for an answer');
    await pc.setRemoteDescription({ type: 'answer', sdp: answerSdp });
    this.offerInFlight = false;
    for (const [track, subscription] of this.subscriptions) {
      if (subscription.negotiated) continue;
      subscription.negotiated = true;
      track.requestKeyframe();
    }
    if (this.offerWanted) this.renegotiate();
  }

  async addIceCandidate(role: PeerRole, candidate: IceCandidateMessage | null): Promise<void> {
    const pc = role === 'publish' ? this.publishPc : this.subscribePc;
    if (!pc) throw new Error(`no ${role} PeerConnection yet`);
    if (!candidate) return;
    await pc.addIceCandidate({
      candidate: candidate.candidate,
      sdpMid: candidate.sdpMid ?? undefined,
      sdpMLineIndex: candidate.sdpMLineIndex ?? undefined,
      usernameFragment: candidate.usernameFragment ?? undefined,
    });
  }

  /** The room's tracks changed: offer the new set once no offer is in flight. */
  renegotiate(): void {
    if (!this.subscribePc || this.closed) return;
    if (this.offerInFlight) {
      this.offerWanted = true;
      return;
    }
    if (this.offerScheduled) return;
    // Coalesces the audio and video of one publisher (and several publishers) into one offer.
    this.offerScheduled = true;
    setImmediate(() => {
      this.offerScheduled = false;
      this.sendOffer().catch((error: unknown) => {
        if (!this.closed) this.events.error(`subscribe offer failed: ${String(error)}`);
      });
    });
  }

  async leave(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const subscription of this.subscriptions.values()) subscription.stopForwarding();
    this.subscriptions.clear();
    for (const track of this.published) track.stop();
    this.context.left(this);
    await Promise.all([this.publishPc?.close(), this.subscribePc?.close()]);
  }

  private openPublishPc(): RTCPeerConnection {
    const pc = new RTCPeerConnection(this.context.peerConfig());
    this.publishPc = pc;
    pc.connectionStateChange.subscribe((state) => this.events.connectionState('publish', state));
    pc.onTrack.subscribe((track) => this.addPublishedTrack(pc, track));
    return pc;
  }

  private addPublishedTrack(pc: RTCPeerConnection, track: MediaStreamTrack): void {
    if (this.closed) return;
    const published = new PublishedTrack(this.id, track, pc, this.context.keyframeIntervalMs);
    this.published.push(published);
    if (published.kind === 'audio') {
      track.onReceiveRtp.subscribe((_rtp, extensions) => {
        const level = extensions?.[RTP_EXTENSION_URI.audioLevelIndication] as { level: number } | undefined;
        if (level) this.events.audioLevel(-level.level);
      });
    }
    this.context.published(published);
  }

  private async sendOffer(): Promise<void> {
    const pc = this.subscribePc;
    if (!pc || this.closed) return;
    this.offerInFlight = true;
    this.offerWanted = false;
    try {
      this.applySubscriptionChanges(pc);
      await pc.setLocalDescription(await pc.createOffer());
    } catch (error) {
      this.offerInFlight = false;
      throw error;
    }
    if (this.closed) return;
    const tracks: SubscribedTrack[] = [];
    for (const [published, { transceiver }] of this.subscriptions) {
      if (transceiver.mid !== null) tracks.push({ mid: transceiver.mid, participantId: published.peerId, kind: published.kind });
    }
    this.events.subscribeOffer(pc.localDescription?.sdp ?? '', tracks);
  }

  /** Brings the subscribe PeerConnection's transceivers in line with the room; only between offers. */
  private applySubscriptionChanges(pc: RTCPeerConnection): void {
    const wanted = new Set(this.context.tracksFor(this.id));
    for (const [published, subscription] of this.subscriptions) {
      if (wanted.has(published)) continue;
      subscription.stopForwarding();
      pc.removeTrack(subscription.transceiver.sender);
      this.subscriptions.delete(published);
    }
    for (const published of wanted) {
      if (!this.subscriptions.has(published)) this.subscriptions.set(published, this.forward(pc, published));
    }
  }

  private forward(pc: RTCPeerConnection, published: PublishedTrack): Subscription {
    const transceiver = pc.addTransceiver(published.kind, { direction: 'sendonly', streams: [new MediaStream({ id: published.peerId })] });
    const sender = transceiver.sender;
    const forwarding = published.track.onReceiveRtp.subscribe((rtp) => {
      // Each subscriber rewrites SSRC, payload type and sequence numbers in place, and the
      // publisher's header extension ids mean nothing on this PeerConnection: send a bare copy.
      const copy = rtp.clone();
      copy.header.extensions = [];
      sender.sendRtp(copy).catch(() => undefined);
    });
    const pli = sender.onPictureLossIndication.subscribe(() => published.requestKeyframe());
    const fir = sender.onRtcp.subscribe((packet) => {
      if (packet instanceof RtcpPayloadSpecificFeedback && packet.feedback.count === FIR_FORMAT) published.requestKeyframe();
    });
    return {
      transceiver,
      negotiated: false,
      stopForwarding: () => {
        forwarding.unSubscribe();
        pli.unSubscribe();
        fir.unSubscribe();
      },
    };
  }
}
