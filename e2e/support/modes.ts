import { platform } from './context';

/**
 * A test that waits out a fixed minimum of the spec (an upload's 60 s timeout, the 60 s after
 * `complete`) on code that is the same in both modes: it runs once, in the embedded run, to keep
 * `npm test` inside CI's time budget. The production run covers the same wiring in its other tests.
 */
export const itOnceAcrossModes: jest.It = platform.mode === 'embedded' ? it : it.skip;
