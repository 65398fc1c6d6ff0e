import { BeaconBatch, BeaconEvent, BeaconValue } from '../beacon-values';

/** Keys mux-embed sends with every event (its always-list). */
const ALWAYS = [
  'view_id',
  'view_sequence_number',
  'player_sequence_number',
  'player_playhead_time',
  'viewer_time',
  'event',
  'video_id',
  'view_playing_time_ms_cumulative',
];
const FULL_STATE_EVENTS = new Set(['viewstart', 'viewend']);

/**
 * Writes beacon events as mux-embed sends them (after key expansion): the player's whole state on
 * the first event, viewstart and viewend, otherwise only the keys whose value changed plus the
 * always-list. Times are ms after `startTime` on the player's clock.
 */
export class BeaconSequence {
  private sequence = 0;
  private readonly state: Record<string, BeaconValue> = {};
  private previous: Record<string, BeaconValue> | undefined;

  constructor(
    readonly viewId: string,
    readonly startTime = 1_767_225_600_000,
    initial: Record<string, BeaconValue> = {},
  ) {
    Object.assign(this.state, { view_id: viewId, ...initial });
  }

  /** The event `name` at `atMs`, after applying `changes` to the player's state. */
  event(name: string, atMs: number, changes: Record<string, BeaconValue> = {}): BeaconEvent {
    this.sequence++;
    Object.assign(this.state, changes, {
      event: name,
      viewer_time: this.startTime + atMs,
      view_sequence_number: this.sequence,
      player_sequence_number: this.sequence,
    });
    const full = { ...this.state };
    let sent: Record<string, BeaconValue>;
    if (!this.previous || FULL_STATE_EVENTS.has(name)) sent = full;
    else {
      const previous = this.previous;
      sent = Object.fromEntries(Object.entries(full).filter(([k, v]) => ALWAYS.includes(k) || previous[k] !== v));
    }
    this.previous = full;
    // Per-event keys leave the player's state once sent, as mux-embed deletes them after an error.
    for (const key of Object.keys(this.state)) if (key.startsWith('player_error_')) delete this.state[key];
    return sent;
  }
}

/** A POST's worth of one view's events, received `delayMs` after the last one was made. */
export function batchOf(viewId: string, events: BeaconEvent[], clockSkewMs = 0, delayMs = 50): BeaconBatch {
  const last = Math.max(...events.map((e) => Number(e.viewer_time)));
  return { view_id: viewId, received_at: last + clockSkewMs + delayMs, events };
}
