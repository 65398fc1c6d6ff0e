import { recordingTimes } from './recording-spans';

describe('recordingTimes', () => {
  const at = (s: number) => new Date(Date.UTC(2026, 10, 24, 20, 0, s));
  it('lists each span with the length of its kept segments, content and slate, in order', () => {
    const spans = [
      { type: 'content' as const, startedAt: at(0) },
      { type: 'slate' as const, startedAt: at(10) },
      { type: 'content' as const, startedAt: at(14) },
    ];
    const segments = [
      { span: 0, duration: 4 },
      { span: 0, duration: 5.5 },
      { span: 1, duration: 2 },
      { span: 1, duration: 2.0004 },
      { span: 2, duration: 3 },
    ];
    expect(recordingTimes(spans, segments)).toEqual([
      { started_at: '2026-11-24T20:00:00.000Z', duration: 9.5, type: 'content' },
      { started_at: '2026-11-24T20:00:10.000Z', duration: 4, type: 'slate' },
      { started_at: '2026-11-24T20:00:14.000Z', duration: 3, type: 'content' },
    ]);
  });

  it('leaves out spans with no segment kept (a dropped trailing slate, a session too short for one)', () => {
    const spans = [
      { type: 'content' as const, startedAt: at(0) },
      { type: 'slate' as const, startedAt: at(10) },
    ];
    expect(recordingTimes(spans, [{ span: 0, duration: 4 }])).toEqual([{ started_at: '2026-11-24T20:00:00.000Z', duration: 4, type: 'content' }]);
  });
});
