import type { RawData, WebSocket } from './ws-types';
import type { RealtimeIdentity, RealtimeLogger } from './realtime-types';
import type { PeerConnectionState, Sfu, SfuPeer } from './sfu';
import {
  type ClientMessage,
  CloseCode,
  parseClientMessage,
  type PeerRole,
  type ServerMessage,
  serializeServerMessage,
  SignalingError,
} from './signaling-messages';
import type { RoomMember, SpaceRoom } from './space-room';

const LOST_STATES: PeerConnectionState[] = ['disconnected', 'failed'];

/**
 * One participant's signaling WebSocket: joins the room and the SFU on its `join` message, relays
 * SDP and ICE candidates, and ends the participant when the socket closes or its media stays
 * unconnected for longer than the grace time.
 */
export class ParticipantSession implements RoomMember {
  readonly participantId: string;
  readonly hidden: boolean;
  private peer: SfuPeer | null = null;
  /** The PeerConnection whose connection makes the participant joined. */
  private joinRole: PeerRole = 'subscribe';
  private readonly states = new Map<PeerRole, PeerConnectionState>();
  private ready = false;
  private closed = false;
  private closing: Promise<void> | null = null;
  private graceTimer: NodeJS.Timeout | null = null;
  private queue: Promise<void> = Promise.resolve();
  private admitted: Promise<void> = Promise.resolve();

  constructor(
    private readonly socket: WebSocket,
    identity: RealtimeIdentity,
    private readonly room: SpaceRoom,
    private readonly sfu: Sfu,
    private readonly graceMs: number,
    private readonly logger: RealtimeLogger,
  ) {
    this.participantId = identity.participantId;
    this.hidden = identity.hidden;
  }

  /** Starts handling the socket; `earlier` are the frames that arrived while the token was checked. */
  start(earlier: RawData[]): void {
    this.admitted = this.room.add(this);
    this.socket.on('message', (data, isBinary) => this.receive(data, isBinary));
    this.socket.on('close', () => void this.close(CloseCode.left, 'socket closed'));
    for (const data of earlier) this.receive(data, false);
    // The participant must send `join` and connect its media within the grace time.
    this.armGraceTimer();
  }

  deliver(message: ServerMessage): void {
    if (this.ready) this.send(message);
  }

  close(code: number, reason: string): Promise<void> {
    this.closing ??= this.shutDown(code, reason);
    return this.closing;
  }

  private async shutDown(code: number, reason: string): Promise<void> {
    this.closed = true;
    this.clearGraceTimer();
    if (this.socket.readyState === this.socket.OPEN || this.socket.readyState === this.socket.CONNECTING) this.socket.close(code, reason);
    this.room.remove(this);
    await this.peer?.leave().catch((error: unknown) => this.logger.warn(`leaving the SFU failed for ${this.participantId}: ${String(error)}`));
  }

  private receive(data: RawData, isBinary: boolean): void {
    if (this.closed) return;
    let message: ClientMessage;
    try {
      if (isBinary) throw new SignalingError('binary messages are not part of the protocol');
      message = parseClientMessage(rawText(data));
    } catch (error) {
      void this.fail(CloseCode.badMessage, error);
      return;
    }
    // In order: a candidate must not overtake the offer it belongs to.
    this.queue = this.queue.then(() => this.handle(message)).catch((error: unknown) => this.fail(CloseCode.badMessage, error));
  }

  private async handle(message: ClientMessage): Promise<void> {
    if (this.closed) return;
    if (message.type === 'join') return this.join(message.publish);
    if (message.type === 'leave') return this.close(CloseCode.left, 'left');
    const peer = this.peer;
    if (!peer) throw new SignalingError(`${message.type} before join`);
    switch (message.type) {
      case 'publishOffer':
        if (this.joinRole !== 'publish') throw new SignalingError('this participant joined without publishing');
        this.send({ type: 'publishAnswer', sdp: await peer.publish(message.sdp) });
        return;
      case 'subscribeAnswer':
        return peer.acceptSubscribeAnswer(message.sdp);
      case 'candidate':
        return peer.addIceCandidate(message.target, message.candidate);
    }
  }

  private async join(publish: boolean): Promise<void> {
    if (this.peer) throw new SignalingError('join sent twice');
    if (publish && this.hidden) {
      await this.close(CloseCode.forbidden, 'a hidden participant cannot publish');
      return;
    }
    this.joinRole = publish ? 'publish' : 'subscribe';
    await this.admitted;
    if (this.closed) return;
    this.peer = this.sfu.join(this.room.spaceId, this.participantId, {
      subscribeOffer: (sdp, tracks) => this.send({ type: 'subscribeOffer', sdp, tracks }),
      connectionState: (role, state) => this.connectionStateChanged(role, state),
      audioLevel: (dbov) => this.room.audioLevel(this.participantId, dbov),
      error: (message) => void this.close(CloseCode.internalError, message.slice(0, 120)),
    });
    this.send({
      type: 'joined',
      participantId: this.participantId,
      hidden: this.hidden,
      participants: this.room.visibleParticipantsExcept(this),
      activeSpeaker: this.room.activeSpeaker,
    });
    this.ready = true;
    await this.peer.subscribe();
  }

  private connectionStateChanged(role: PeerRole, state: PeerConnectionState): void {
    if (this.closed) return;
    this.states.set(role, state);
    if (role === this.joinRole && state === 'connected') this.room.markJoined(this);
    const lost = [...this.states.values()].some((value) => LOST_STATES.includes(value));
    if (lost) this.armGraceTimer();
    else if (this.states.get(this.joinRole) === 'connected') this.clearGraceTimer();
  }

  private armGraceTimer(): void {
    if (this.graceTimer || this.closed) return;
    this.graceTimer = setTimeout(() => void this.close(CloseCode.mediaTimeout, 'media not connected'), this.graceMs);
  }

  private clearGraceTimer(): void {
    if (this.graceTimer) clearTimeout(this.graceTimer);
    this.graceTimer = null;
  }

  private send(message: ServerMessage): void {
    if (!this.closed && this.socket.readyState === this.socket.OPEN) this.socket.send(serializeServerMessage(message));
  }

  private async fail(code: number, error: unknown): Promise<void> {
    if (this.closed) return;
    const message = error instanceof Error ? error.message : String(error);
    this.send({ type: 'error', message });
    if (!(error instanceof SignalingError)) this.logger.warn(`realtime participant ${this.participantId} in space ${this.room.spaceId}: ${message}`);
    // A close reason is at most 123 bytes.
    await this.close(code, message.slice(0, 120));
  }
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data as ArrayBuffer).toString('utf8');
}
