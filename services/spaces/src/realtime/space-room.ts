import { ActiveSpeakerDetector, type ActiveSpeakerOptions } from './active-speaker';
import type { RealtimeListener, RealtimeLogger, RealtimeParticipant } from './realtime-types';
import { CloseCode, type ServerMessage } from './signaling-messages';

/** What a room needs of a participant's signaling connection. */
export interface RoomMember {
  readonly participantId: string;
  readonly hidden: boolean;
  /** A room event; dropped by a member that has not been sent its `joined` message yet. */
  deliver(message: ServerMessage): void;
  close(code: number, reason: string): Promise<void>;
}

export interface SpaceRoomOptions {
  listener: RealtimeListener | undefined;
  logger: RealtimeLogger;
  activeSpeaker: ActiveSpeakerOptions | undefined;
  /** How often the active speaker is re-evaluated. */
  activeSpeakerTickMs: number;
  /** The room has no member left. */
  onEmpty(): void;
}

/**
 * The participants of one space on this server: who is connected, who has joined (in join order),
 * the active speaker, and the events to the service and to the browsers.
 */
export class SpaceRoom {
  private readonly members = new Set<RoomMember>();
  private readonly joined: RoomMember[] = [];
  private readonly detector: ActiveSpeakerDetector;
  private ticker: NodeJS.Timeout | null = null;

  constructor(
    readonly spaceId: string,
    private readonly options: SpaceRoomOptions,
  ) {
    this.detector = new ActiveSpeakerDetector(options.activeSpeaker);
  }

  get activeSpeaker(): string | null {
    return this.detector.activeSpeaker;
  }

  participants(): RealtimeParticipant[] {
    return this.joined.map((member) => ({ id: member.participantId, hidden: member.hidden }));
  }

  visibleCount(): number {
    return this.joined.filter((member) => !member.hidden).length;
  }

  /** The visible participants who have joined, for a newcomer's `joined` message. */
  visibleParticipantsExcept(member: RoomMember): { id: string }[] {
    return this.joined.filter((other) => other !== member && !other.hidden).map((other) => ({ id: other.participantId }));
  }

  /** Whether a visible `participantId` may connect: one already here (a reconnect replaces itself) or a free place. */
  hasRoomFor(participantId: string, limit: number): boolean {
    const visible = new Set([...this.members].filter((member) => !member.hidden).map((member) => member.participantId));
    return visible.has(participantId) || visible.size < limit;
  }

  /** Adds a connection; an older connection of the same participant is closed. */
  async add(member: RoomMember): Promise<void> {
    const previous = [...this.members].find((other) => other.participantId === member.participantId);
    this.members.add(member);
    if (previous) await previous.close(CloseCode.replaced, 'replaced by a newer connection');
  }

  markJoined(member: RoomMember): void {
    if (!this.members.has(member) || this.joined.includes(member)) return;
    this.joined.push(member);
    this.notify('onParticipantJoined', () => this.options.listener?.onParticipantJoined(this.spaceId, { id: member.participantId, hidden: member.hidden }));
    if (!member.hidden) this.broadcast({ type: 'participantJoined', participant: { id: member.participantId } }, member);
  }

  remove(member: RoomMember): void {
    if (this.members.delete(member)) {
      const index = this.joined.indexOf(member);
      if (index >= 0) {
        this.joined.splice(index, 1);
        this.notify('onParticipantLeft', () => this.options.listener?.onParticipantLeft(this.spaceId, member.participantId, member.hidden));
        if (!member.hidden) this.broadcast({ type: 'participantLeft', participantId: member.participantId });
      }
      const stillConnected = [...this.members].some((other) => other.participantId === member.participantId);
      if (!stillConnected && this.detector.remove(member.participantId)) this.speakerChanged();
    }
    if (this.members.size === 0) {
      this.stopTicker();
      this.options.onEmpty();
    }
  }

  audioLevel(participantId: string, dbov: number): void {
    this.detector.addLevel(participantId, dbov, Date.now());
    this.ticker ??= setInterval(() => {
      if (this.detector.update(Date.now())) this.speakerChanged();
    }, this.options.activeSpeakerTickMs);
  }

  async closeAll(code: number, reason: string): Promise<void> {
    await Promise.all([...this.members].map((member) => member.close(code, reason)));
  }

  private speakerChanged(): void {
    const participantId = this.detector.activeSpeaker;
    this.broadcast({ type: 'activeSpeaker', participantId });
    this.notify('onActiveSpeakerChanged', () => this.options.listener?.onActiveSpeakerChanged?.(this.spaceId, participantId));
  }

  private broadcast(message: ServerMessage, except?: RoomMember): void {
    for (const member of this.members) if (member !== except) member.deliver(message);
  }

  private stopTicker(): void {
    if (this.ticker) clearInterval(this.ticker);
    this.ticker = null;
  }

  /** Runs a listener call; its failure must not break the room, so it is logged. */
  private notify(event: string, call: () => void | Promise<void> | undefined): void {
    const warn = (error: unknown) => this.options.logger.warn(`realtime listener ${event} for space ${this.spaceId} failed: ${String(error)}`);
    try {
      Promise.resolve(call()).catch(warn);
    } catch (error) {
      warn(error);
    }
  }
}
