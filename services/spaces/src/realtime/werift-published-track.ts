import type { MediaStreamTrack, RTCPeerConnection } from 'werift';

/**
 * A track a peer publishes to the SFU. Key frame requests (PLI) from any number of subscribers are
 * merged: at most one per `keyframeIntervalMs`, the last one of a burst sent when the interval ends.
 */
export class PublishedTrack {
  private lastKeyframeRequestAt = 0;
  private pendingKeyframeRequest: NodeJS.Timeout | null = null;

  constructor(
    readonly peerId: string,
    readonly track: MediaStreamTrack,
    private readonly publishPc: RTCPeerConnection,
    private readonly keyframeIntervalMs: number,
  ) {}

  get kind(): 'audio' | 'video' {
    return this.track.kind === 'audio' ? 'audio' : 'video';
  }

  requestKeyframe(): void {
    if (this.kind !== 'video' || this.pendingKeyframeRequest) return;
    const wait = this.lastKeyframeRequestAt + this.keyframeIntervalMs - Date.now();
    if (wait <= 0) return this.sendPli();
    this.pendingKeyframeRequest = setTimeout(() => {
      this.pendingKeyframeRequest = null;
      this.sendPli();
    }, wait);
  }

  stop(): void {
    if (this.pendingKeyframeRequest) clearTimeout(this.pendingKeyframeRequest);
    this.pendingKeyframeRequest = null;
  }

  private sendPli(): void {
    const ssrc = this.track.ssrc;
    const receiver = this.publishPc.getTransceivers().find((transceiver) => transceiver.receiver.tracks.includes(this.track))?.receiver;
    if (ssrc === undefined || !receiver) return;
    this.lastKeyframeRequestAt = Date.now();
    // Fails only once the publisher's transport is closed, when nobody needs the key frame any more.
    receiver.sendRtcpPLI(ssrc).catch(() => undefined);
  }
}
