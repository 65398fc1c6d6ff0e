/** Who a join token lets in: verified by the service (RS256 JWT, aud "rt", sub = space id). */
export interface RealtimeIdentity {
  spaceId: string;
  participantId: string;
  /** Subscribe-only and invisible to the others (the broadcast compositor). */
  hidden: boolean;
}

/** Rejects (throws) for a token that does not let anyone in. */
export type VerifyToken = (token: string) => Promise<RealtimeIdentity>;

export interface RealtimeParticipant {
  id: string;
  hidden: boolean;
}

/**
 * Room events for the spaces service. A participant has joined once its media is connected: the
 * publish PeerConnection of one that publishes, else the subscribe one. It has left when its
 * WebSocket closes or its media stays disconnected for longer than the grace time. Calls may return
 * a promise; a rejection is logged, so the listener handles its own failures.
 */
export interface RealtimeListener {
  onParticipantJoined(spaceId: string, participant: RealtimeParticipant): void | Promise<void>;
  onParticipantLeft(spaceId: string, participantId: string, hidden: boolean): void | Promise<void>;
  onActiveSpeakerChanged?(spaceId: string, participantId: string | null): void | Promise<void>;
}

export interface RealtimeLogger {
  log(message: string): void;
  warn(message: string): void;
}
