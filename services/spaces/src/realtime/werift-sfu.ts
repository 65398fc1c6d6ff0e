import {
  type RTCPeerConnection,
  useAbsSendTime,
  useAudioLevelIndication,
  useNACK,
  useOPUS,
  usePLI,
  useREMB,
  useSdesMid,
  useTransportWideCC,
  useTWCC,
  useVP8,
} from 'werift';
import type { Sfu, SfuPeer, SfuPeerEvents } from './sfu';
import type { PublishedTrack } from './werift-published-track';
import { WeriftPeer, type WeriftPeerContext } from './werift-peer';

export interface WeriftSfuOptions {
  /** UDP ports the PeerConnections bind: one per host address per PeerConnection, two PeerConnections a participant. Any port when unset. */
  icePortRange?: [number, number];
  /** Addresses offered as host candidates besides the interfaces' own (a node's external IP on Kubernetes). */
  iceAdditionalHostAddresses?: string[];
  /** m-sections a publish offer may have (default 4: camera, microphone and a screen's two). */
  maxPublishedTracks?: number;
  /** Least time between two key frame requests to one publisher (default 500 ms). */
  keyframeIntervalMs?: number;
}

type PeerConfig = NonNullable<ConstructorParameters<typeof RTCPeerConnection>[0]>;

/** An SFU in this Node process on werift: every peer receives every other peer's tracks. */
export class WeriftSfu implements Sfu {
  private readonly rooms = new Map<string, Map<string, WeriftPeer>>();

  constructor(private readonly options: WeriftSfuOptions = {}) {
    const range = options.icePortRange;
    if (range && !(Number.isInteger(range[0]) && Number.isInteger(range[1]) && 0 < range[0] && range[0] < range[1] && range[1] <= 65535)) {
      throw new Error(`icePortRange must be two ports, the first below the second: ${JSON.stringify(range)}`);
    }
  }

  join(roomId: string, peerId: string, events: SfuPeerEvents): SfuPeer {
    const room = this.rooms.get(roomId) ?? new Map<string, WeriftPeer>();
    this.rooms.set(roomId, room);
    if (room.has(peerId)) throw new Error(`peer ${peerId} is already in room ${roomId}`);
    const context: WeriftPeerContext = {
      peerConfig: () => this.peerConfig(),
      maxPublishedTracks: this.options.maxPublishedTracks ?? 4,
      keyframeIntervalMs: this.options.keyframeIntervalMs ?? 500,
      tracksFor: (id) => [...room.values()].filter((other) => other.id !== id).flatMap((other) => other.published),
      published: (track: PublishedTrack) => this.renegotiateOthers(room, track.peerId),
      left: (leaving) => {
        if (room.get(leaving.id) !== leaving) return;
        room.delete(leaving.id);
        if (room.size === 0) this.rooms.delete(roomId);
        this.renegotiateOthers(room, leaving.id);
      },
    };
    const peer = new WeriftPeer(peerId, events, context);
    room.set(peerId, peer);
    return peer;
  }

  async close(): Promise<void> {
    const peers = [...this.rooms.values()].flatMap((room) => [...room.values()]);
    await Promise.all(peers.map((peer) => peer.leave()));
  }

  private renegotiateOthers(room: Map<string, WeriftPeer>, peerId: string): void {
    for (const other of room.values()) if (other.id !== peerId) other.renegotiate();
  }

  private peerConfig(): PeerConfig {
    return {
      // No STUN or TURN: the SFU is reached at its host candidates (plus the additional addresses).
      iceServers: [],
      bundlePolicy: 'max-bundle',
      // Transport-wide congestion control feedback lets a publishing browser raise its bit rate.
      codecs: { audio: [useOPUS()], video: [useVP8({ rtcpFeedback: [useNACK(), usePLI(), useREMB(), useTWCC()] })] },
      headerExtensions: {
        audio: [useSdesMid(), useAudioLevelIndication()],
        video: [useSdesMid(), useAbsSendTime(), useTransportWideCC()],
      },
      icePortRange: this.options.icePortRange,
      iceAdditionalHostAddresses: this.options.iceAdditionalHostAddresses,
    };
  }
}
