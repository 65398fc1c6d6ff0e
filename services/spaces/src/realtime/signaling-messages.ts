import { z } from 'zod';

/** Which of a participant's two PeerConnections a message is about. */
export type PeerRole = 'publish' | 'subscribe';

/** Largest SDP accepted from a browser: a subscribe answer grows by two m-sections per publisher. */
export const MAX_SDP_CHARS = 200_000;
/** Largest signaling message (a WebSocket frame). */
export const MAX_MESSAGE_BYTES = 256 * 1024;

const sdp = z.string().min(1).max(MAX_SDP_CHARS);

const iceCandidate = z
  .object({
    candidate: z.string().max(1024),
    sdpMid: z.string().max(64).nullish(),
    sdpMLineIndex: z.number().int().min(0).max(1024).nullish(),
    usernameFragment: z.string().max(256).nullish(),
  })
  .strict();

const clientMessage = z.discriminatedUnion('type', [
  /** First message: whether this participant will publish (hidden ones never do). */
  z.object({ type: z.literal('join'), publish: z.boolean() }).strict(),
  z.object({ type: z.literal('publishOffer'), sdp }).strict(),
  z.object({ type: z.literal('subscribeAnswer'), sdp }).strict(),
  /** A trickled ICE candidate of the browser's side; `null` is the end of candidates. */
  z.object({ type: z.literal('candidate'), target: z.enum(['publish', 'subscribe']), candidate: iceCandidate.nullable() }).strict(),
  z.object({ type: z.literal('leave') }).strict(),
]);

export type ClientMessage = z.infer<typeof clientMessage>;
export type IceCandidateMessage = z.infer<typeof iceCandidate>;

export interface ParticipantSummary {
  id: string;
}

/** A forwarded track of the subscribe PeerConnection: whose it is, by its m-section's mid. */
export interface SubscribedTrack {
  mid: string;
  participantId: string;
  kind: 'audio' | 'video';
}

export type ServerMessage =
  | { type: 'joined'; participantId: string; hidden: boolean; participants: ParticipantSummary[]; activeSpeaker: string | null }
  | { type: 'publishAnswer'; sdp: string }
  | { type: 'subscribeOffer'; sdp: string; tracks: SubscribedTrack[] }
  | { type: 'participantJoined'; participant: ParticipantSummary }
  | { type: 'participantLeft'; participantId: string }
  | { type: 'activeSpeaker'; participantId: string | null }
  | { type: 'error'; message: string };

export class SignalingError extends Error {}

/** Parses one WebSocket text frame from a browser; throws SignalingError naming what is wrong. */
export function parseClientMessage(raw: string): ClientMessage {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new SignalingError('message is not JSON');
  }
  const parsed = clientMessage.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  throw new SignalingError(`invalid message: ${where}${issue.message}`);
}

export function serializeServerMessage(message: ServerMessage): string {
  return JSON.stringify(message);
}

/** WebSocket close codes of the signaling connection. */
export const CloseCode = {
  left: 1000,
  serverClosing: 1001,
  internalError: 1011,
  badMessage: 4400,
  unauthorized: 4401,
  forbidden: 4403,
  /** No media connection within the grace time, or lost for longer than it. */
  mediaTimeout: 4408,
  /** The same participant connected again; this older connection is dropped. */
  replaced: 4409,
  /** `RealtimeServer.disconnectAll` (the space was closed). */
  disconnected: 4410,
  /** The space already has its limit of visible participants (SPACES_PARTICIPANT_LIMIT). */
  full: 4429,
} as const;
