import { SessionState, sessionStateOf, sessionStep, SessionTrigger } from './session-machine';

const IDLE: SessionState = { status: 'idle', recording: false, encoder: 'none', completed: false };
const LIVE: SessionState = { status: 'active', recording: true, encoder: 'connected', completed: false };
const AWAY: SessionState = { ...LIVE, encoder: 'away' };
const DISABLED: SessionState = { ...IDLE, status: 'disabled' };

/** Runs triggers from a state: the states passed through, and every event and action in order. */
function run(from: SessionState, ...triggers: SessionTrigger[]) {
  let state = from;
  const events: string[] = [];
  const actions: string[] = [];
  for (const trigger of triggers) {
    const step = sessionStep(state, trigger);
    state = step.next;
    events.push(...step.events);
    actions.push(...step.actions);
  }
  return { state, events, actions };
}

const leaves = (reconnectWindow: number, endedByPlatform = false): SessionTrigger => ({ on: 'encoder-leaves', reconnectWindow, endedByPlatform });

/** Spec 3, the live stream rows, each as a transition. */
describe('sessionStep (spec 3: live streams)', () => {
  it('encoder session begins, not disabled → active: a new asset, connected, recording and active', () => {
    expect(sessionStep(IDLE, { on: 'encoder-connects' })).toEqual({ next: LIVE, events: ['connected', 'recording', 'active'], actions: ['start-recording'] });
  });

  it('encoder session begins on a disabled stream, or with an encoder already on → refused, nothing changes', () => {
    expect(sessionStep(DISABLED, { on: 'encoder-connects' })).toEqual({ next: DISABLED, events: [], actions: ['refuse-encoder'] });
    expect(sessionStep(LIVE, { on: 'encoder-connects' })).toEqual({ next: LIVE, events: [], actions: ['refuse-encoder'] });
  });

  it('the encoder leaves with a reconnect window: disconnected, still active, the recording held; a reconnect continues it', () => {
    expect(sessionStep(LIVE, leaves(60))).toEqual({ next: AWAY, events: ['disconnected'], actions: ['hold-recording'] });
    expect(sessionStep(AWAY, { on: 'encoder-connects' })).toEqual({ next: LIVE, events: ['connected'], actions: ['continue-recording'] });
  });

  it('encoder session ends (reconnect_window elapsed) → idle with the idle event, the recording closed (ENDLIST)', () => {
    expect(run(LIVE, leaves(60), { on: 'reconnect-window-elapsed' })).toEqual({
      state: IDLE,
      events: ['disconnected', 'idle'],
      actions: ['hold-recording', 'close-recording'],
    });
    // without a window it ends as the encoder leaves, and so when the platform ended the session
    expect(run(LIVE, leaves(0))).toEqual({ state: IDLE, events: ['disconnected', 'idle'], actions: ['close-recording'] });
    expect(run(LIVE, leaves(60, true))).toEqual({ state: IDLE, events: ['disconnected', 'idle'], actions: ['close-recording'] });
  });

  it('PUT complete → the recording ends now (idle, ENDLIST); the encoder is closed 60 s later, then only disconnects', () => {
    const completed = run(LIVE, { on: 'complete' });
    expect(completed).toEqual({
      state: { status: 'idle', recording: false, encoder: 'connected', completed: true },
      events: ['idle'],
      actions: ['close-recording', 'drop-encoder-later'],
    });
    expect(run(completed.state, { on: 'complete-drop-due' }).actions).toEqual(['drop-encoder']);
    expect(run(completed.state, leaves(60))).toEqual({ state: IDLE, events: ['disconnected'], actions: [] });
    // during the reconnect window, and on a stream with nothing recording
    expect(run(AWAY, { on: 'complete' })).toMatchObject({ state: { status: 'idle', encoder: 'none' }, events: ['idle'], actions: ['close-recording'] });
    expect(run(IDLE, { on: 'complete' })).toEqual({ state: IDLE, events: [], actions: [] });
  });

  it('PUT disable → disabled: the recording ends, the encoder is closed at once, reconnects fail until enabled', () => {
    const disabled = run(LIVE, { on: 'disable' });
    expect(disabled).toEqual({ state: { ...LIVE, status: 'disabled' }, events: ['disabled'], actions: ['drop-encoder', 'close-recording'] });
    expect(run(disabled.state, leaves(60))).toEqual({ state: DISABLED, events: ['disconnected'], actions: [] });
    expect(sessionStep(DISABLED, { on: 'encoder-connects' }).actions).toEqual(['refuse-encoder']);
    expect(run(DISABLED, { on: 'disable' })).toEqual({ state: DISABLED, events: [], actions: [] });
    expect(run(IDLE, { on: 'disable' })).toEqual({ state: DISABLED, events: ['disabled'], actions: [] });
  });

  it('PUT enable → accepts RTMP again (idle, the state Mux shows); an enabled stream is left as it is', () => {
    expect(run(DISABLED, { on: 'enable' })).toEqual({ state: IDLE, events: ['enabled'], actions: [] });
    expect(run(DISABLED, { on: 'enable' }, { on: 'encoder-connects' }).actions).toEqual(['start-recording']);
    expect(run(LIVE, { on: 'enable' })).toEqual({ state: LIVE, events: [], actions: [] });
  });

  it('DELETE while active → removed: the ingest terminated, the encoder disconnected', () => {
    expect(run(LIVE, { on: 'delete' })).toEqual({ state: IDLE, events: ['deleted'], actions: ['drop-encoder', 'close-recording', 'remove-stream'] });
    expect(run(IDLE, { on: 'delete' }).actions).toEqual(['remove-stream']);
  });

  it('max_continuous_duration reached → the encoder dropped, the session ends without a window', () => {
    expect(run(LIVE, { on: 'session-limit-reached' }, leaves(60, true))).toEqual({
      state: IDLE,
      events: ['disconnected', 'idle'],
      actions: ['drop-encoder', 'close-recording'],
    });
  });

  it('reads the state of a stream row', () => {
    const row = { status: 'active' as const, activeAssetId: 'a', disconnectedAt: null, completeRequestedAt: null };
    expect(sessionStateOf(row)).toEqual(LIVE);
    expect(sessionStateOf({ ...row, disconnectedAt: new Date() })).toEqual(AWAY);
    expect(sessionStateOf({ ...row, status: 'idle', activeAssetId: null, completeRequestedAt: new Date() })).toEqual({ ...IDLE, completed: true });
  });
});
