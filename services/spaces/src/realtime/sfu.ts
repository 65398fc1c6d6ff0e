import type { IceCandidateMessage, PeerRole, SubscribedTrack } from './signaling-messages';

export type PeerConnectionState = 'new' | 'connecting' | 'connected' | 'disconnected' | 'failed' | 'closed';

/** What the SFU tells the signaling layer about one peer. */
export interface SfuPeerEvents {
  /** A (re)negotiation offer of the subscribe PeerConnection, to send to the browser. */
  subscribeOffer(sdp: string, tracks: SubscribedTrack[]): void;
  connectionState(role: PeerRole, state: PeerConnectionState): void;
  /** One audio level of what the peer publishes, in dBov (0 loudest, −127 silence). */
  audioLevel(dbov: number): void;
  /** The SFU cannot go on with this peer (a failed renegotiation): the signaling layer ends it. */
  error(message: string): void;
}

/**
 * One participant in the SFU: a publish PeerConnection (the browser offers its tracks) and a
 * subscribe PeerConnection (the SFU offers everyone else's tracks, renegotiating as they come and go).
 */
export interface SfuPeer {
  /** Answers the browser's publish offer (audio and video, sendonly). */
  publish(offerSdp: string): Promise<string>;
  /** Opens the subscribe side: offers follow through `SfuPeerEvents.subscribeOffer`. */
  subscribe(): Promise<void>;
  acceptSubscribeAnswer(answerSdp: string): Promise<void>;
  addIceCandidate(role: PeerRole, candidate: IceCandidateMessage | null): Promise<void>;
  /** Closes both PeerConnections and stops forwarding this peer's tracks to the others. */
  leave(): Promise<void>;
}

/** The media plane, kept narrow so that another SFU (Janus, mediasoup) can be an adapter. */
export interface Sfu {
  /** Adds a peer to a room; it is subscribed to every track the room's other peers publish. */
  join(roomId: string, peerId: string, events: SfuPeerEvents): SfuPeer;
  close(): Promise<void>;
}
