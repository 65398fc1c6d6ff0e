import { LiveStreamEntity, LiveStreamStatus } from './live-stream.entity';

/**
 * A live stream's session as spec 3 moves it: its status, whether a recording is open, where its
 * encoder is, and whether `complete` has ended the recording while the encoder stays on.
 */
export interface SessionState {
  status: LiveStreamStatus;
  /** A recording (the stream's `active_asset_id`) is open. */
  recording: boolean;
  /** `connected`: an encoder publishes; `away`: it left and the reconnect window holds the recording. */
  encoder: 'connected' | 'away' | 'none';
  /** `complete` closed the recording; the encoder is dropped COMPLETE_DROP_SECONDS later. */
  completed: boolean;
}

/** What happens to a stream's session. */
export type SessionTrigger =
  /** An encoder publishes with the stream's key (a reconnect when the window holds the recording). */
  | { on: 'encoder-connects' }
  /** The encoder left, or was dropped (`endedByPlatform`: disable, reset key, session limit, delete). */
  | { on: 'encoder-leaves'; reconnectWindow: number; endedByPlatform: boolean }
  | { on: 'reconnect-window-elapsed' }
  | { on: 'complete' }
  /** COMPLETE_DROP_SECONDS after `complete`. */
  | { on: 'complete-drop-due' }
  | { on: 'session-limit-reached' }
  | { on: 'disable' }
  | { on: 'enable' }
  | { on: 'delete' };

/** The webhook events of a step (`video.live_stream.*`), in order. */
export type SessionEvent = 'connected' | 'recording' | 'active' | 'disconnected' | 'idle' | 'disabled' | 'enabled' | 'deleted';

/** What the runner does for a step. */
export type SessionAction =
  | 'refuse-encoder'
  /** A new recording (a new asset, `preparing`). */
  | 'start-recording'
  /** The reconnect continues the held recording. */
  | 'continue-recording'
  /** The encoder is away: the recording is held for the reconnect window (slate may fill it). */
  | 'hold-recording'
  /** The recording is closed: EXT-X-ENDLIST, the asset ready. */
  | 'close-recording'
  | 'drop-encoder'
  /** The encoder is dropped later (COMPLETE_DROP_SECONDS after `complete`). */
  | 'drop-encoder-later'
  | 'remove-stream';

export interface SessionStep {
  next: SessionState;
  events: SessionEvent[];
  actions: SessionAction[];
}

/** The session state of a stream's row. */
export function sessionStateOf(stream: Pick<LiveStreamEntity, 'status' | 'activeAssetId' | 'disconnectedAt' | 'completeRequestedAt'>): SessionState {
  const recording = stream.activeAssetId !== null;
  const encoder = stream.status !== 'active' ? 'none' : stream.disconnectedAt !== null ? 'away' : 'connected';
  return { status: stream.status, recording, encoder, completed: stream.completeRequestedAt !== null && !recording };
}

const step = (next: SessionState, events: SessionEvent[] = [], actions: SessionAction[] = []): SessionStep => ({ next, events, actions });

/** The ended session: idle, nothing open. */
const IDLE: SessionState = { status: 'idle', recording: false, encoder: 'none', completed: false };

/**
 * The transition function of spec 3's live stream rows, pure: the runners (LiveStreamIngest in the
 * database, IngestSessions in the process) apply its state, emit its events and do its actions.
 */
export function sessionStep(state: SessionState, trigger: SessionTrigger): SessionStep {
  switch (trigger.on) {
    case 'encoder-connects':
      return encoderConnects(state);
    case 'encoder-leaves':
      return encoderLeaves(state, trigger.reconnectWindow, trigger.endedByPlatform);
    case 'reconnect-window-elapsed':
      // the window passed without a reconnect: the recording ends, the stream is idle
      if (state.encoder !== 'away') return step(state);
      return state.status === 'active'
        ? step(IDLE, ['idle'], ['close-recording'])
        : step({ ...state, recording: false, encoder: 'none' }, [], ['close-recording']);
    case 'complete':
      // the recording ends now (ENDLIST, the asset ready, the stream idle); the encoder stays 60 s more
      if (!state.recording) return step(state);
      return step(
        {
          status: state.status === 'active' ? 'idle' : state.status,
          recording: false,
          encoder: state.encoder === 'connected' ? 'connected' : 'none',
          completed: true,
        },
        state.status === 'active' ? ['idle'] : [],
        ['close-recording', ...(state.encoder === 'connected' ? (['drop-encoder-later'] as const) : [])],
      );
    case 'complete-drop-due':
    case 'session-limit-reached':
      return state.encoder === 'connected' ? step(state, [], ['drop-encoder']) : step(state);
    case 'disable':
      // ends the recording and closes the encoder's connection at once; the key is refused until enabled
      if (state.status === 'disabled') return step(state);
      return step(
        { ...state, status: 'disabled' },
        ['disabled'],
        [...(state.encoder === 'connected' ? (['drop-encoder'] as const) : []), ...(state.recording ? (['close-recording'] as const) : [])],
      );
    case 'enable':
      // what follows enable is not shown in spec 3: idle, as Mux (the encoder may connect again)
      return state.status === 'disabled' ? step({ ...IDLE }, ['enabled']) : step(state);
    case 'delete':
      return step(
        IDLE,
        ['deleted'],
        [...(state.encoder === 'connected' ? (['drop-encoder'] as const) : []), ...(state.recording ? (['close-recording'] as const) : []), 'remove-stream'],
      );
  }
}

function encoderConnects(state: SessionState): SessionStep {
  if (state.status === 'disabled' || state.encoder === 'connected') return step(state, [], ['refuse-encoder']);
  const active: SessionState = { status: 'active', recording: true, encoder: 'connected', completed: false };
  // inside the reconnect window: the same recording goes on
  if (state.encoder === 'away' && state.recording) return step(active, ['connected'], ['continue-recording']);
  return step(active, ['connected', 'recording', 'active'], ['start-recording']);
}

function encoderLeaves(state: SessionState, reconnectWindow: number, endedByPlatform: boolean): SessionStep {
  if (state.encoder !== 'connected') return step(state);
  // disabled or deleted meanwhile (the recording closed with it): only the disconnect is left
  if (state.status !== 'active') return step({ ...state, encoder: 'none', recording: false, completed: false }, ['disconnected']);
  if (state.recording && reconnectWindow > 0 && !endedByPlatform) return step({ ...state, encoder: 'away' }, ['disconnected'], ['hold-recording']);
  return step(IDLE, ['disconnected', 'idle'], state.recording ? ['close-recording'] : []);
}
