export interface ActiveSpeakerOptions {
  /** Time constant of the exponentially weighted moving average of each participant's level. */
  smoothingMs?: number;
  /** A participant whose smoothed level is at or below this is not speaking. */
  thresholdDbov?: number;
  /** How long someone must stay the loudest speaker before becoming the active speaker. */
  dominanceMs?: number;
  /** A participant without a level for this long is taken as silent (muted, stopped sending). */
  silentAfterMs?: number;
}

/** Level of digital silence in the RTP audio level extension (RFC 6464: 0 to −127 dBov). */
const SILENCE_DBOV = -127;

interface SpeakerLevel {
  smoothedDbov: number;
  updatedAtMs: number;
  lastSampleAtMs: number;
}

/**
 * Picks a room's active speaker from the audio levels its publishers send (RTP
 * `ssrc-audio-level`): the loudest participant above the threshold, once it has stayed the loudest
 * for the dominance time. The first speaker is chosen by the same rule. Silence keeps the last
 * speaker active.
 */
export class ActiveSpeakerDetector {
  private readonly smoothingMs: number;
  private readonly thresholdDbov: number;
  private readonly dominanceMs: number;
  private readonly silentAfterMs: number;
  private readonly levels = new Map<string, SpeakerLevel>();
  private speaker: string | null = null;
  private candidate: { id: string; sinceMs: number } | null = null;

  constructor(options: ActiveSpeakerOptions = {}) {
    this.smoothingMs = options.smoothingMs ?? 300;
    this.thresholdDbov = options.thresholdDbov ?? -50;
    this.dominanceMs = options.dominanceMs ?? 1500;
    this.silentAfterMs = options.silentAfterMs ?? 500;
  }

  get activeSpeaker(): string | null {
    return this.speaker;
  }

  /** The participant's smoothed level, for tests and diagnostics. */
  smoothedLevel(participantId: string): number | undefined {
    return this.levels.get(participantId)?.smoothedDbov;
  }

  addLevel(participantId: string, dbov: number, atMs: number): void {
    const clamped = Math.max(SILENCE_DBOV, Math.min(0, dbov));
    const level = this.levels.get(participantId);
    if (!level) {
      this.levels.set(participantId, { smoothedDbov: SILENCE_DBOV, updatedAtMs: atMs, lastSampleAtMs: atMs });
      return;
    }
    this.smooth(level, clamped, atMs);
    level.lastSampleAtMs = atMs;
  }

  /** Forgets a participant; returns true when it was the active speaker (now none). */
  remove(participantId: string): boolean {
    this.levels.delete(participantId);
    if (this.candidate?.id === participantId) this.candidate = null;
    if (this.speaker !== participantId) return false;
    this.speaker = null;
    return true;
  }

  /** Re-evaluates at `atMs`; returns true when the active speaker changed. */
  update(atMs: number): boolean {
    let loudest: { id: string; dbov: number } | null = null;
    for (const [id, level] of this.levels) {
      if (atMs - level.lastSampleAtMs > this.silentAfterMs) this.smooth(level, SILENCE_DBOV, atMs);
      if (level.smoothedDbov > this.thresholdDbov && (!loudest || level.smoothedDbov > loudest.dbov)) loudest = { id, dbov: level.smoothedDbov };
    }
    if (!loudest || loudest.id === this.speaker) {
      this.candidate = null;
      return false;
    }
    if (this.candidate?.id !== loudest.id) {
      this.candidate = { id: loudest.id, sinceMs: atMs };
      return false;
    }
    if (atMs - this.candidate.sinceMs < this.dominanceMs) return false;
    this.speaker = loudest.id;
    this.candidate = null;
    return true;
  }

  private smooth(level: SpeakerLevel, dbov: number, atMs: number): void {
    const elapsed = Math.max(0, atMs - level.updatedAtMs);
    const weight = 1 - Math.exp(-elapsed / this.smoothingMs);
    level.smoothedDbov += weight * (dbov - level.smoothedDbov);
    level.updatedAtMs = atMs;
  }
}
