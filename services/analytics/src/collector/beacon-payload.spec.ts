import { parseBeaconPayload } from './beacon-payload';
import { loadFixture } from './testing/beacon-fixtures';

const limits = { maxEventsPerPost: 300, maxKeysPerEvent: 500, maxValueChars: 8192 };
const body = (events: unknown) => JSON.stringify({ metadata: { transmission_timestamp: 1 }, events });

describe('parseBeaconPayload', () => {
  it('takes every captured POST whole', () => {
    for (const post of loadFixture('playback-view').posts) {
      const parsed = parseBeaconPayload(JSON.stringify(post.body), limits);
      expect(parsed.ok && parsed.events.length).toBe(post.body.events.length);
    }
  });

  it.each([
    ['not JSON', '{"events":[', /not JSON/],
    ['a JSON scalar', '42', /object with an events array/],
    ['null', 'null', /object with an events array/],
    ['events not an array', '{"events":{}}', /object with an events array/],
    ['no events', body([]), /empty/],
    ['an event that is not an object', body([{ xid: 'v' }, 'x']), /events\[1\] is not an object/],
    ['an array as event', body([[1]]), /events\[0\] is not an object/],
  ])('refuses %s', (_what, text, reason) => {
    const parsed = parseBeaconPayload(text, limits);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.reason).toMatch(reason);
  });

  it('refuses more events per POST and more keys per event than the limits', () => {
    const small = { ...limits, maxEventsPerPost: 2, maxKeysPerEvent: 3 };
    expect(parseBeaconPayload(body([{}, {}, {}]), small)).toEqual({ ok: false, reason: 'more than 2 events' });
    expect(parseBeaconPayload(body([{ a: 1, b: 2, c: 3, d: 4 }]), small)).toEqual({ ok: false, reason: 'events[0] has more than 3 keys' });
    expect(parseBeaconPayload(body([{ ['k'.repeat(101)]: 1 }]), limits)).toMatchObject({ ok: false });
  });

  it('cuts long strings, turns nested values into JSON text and drops __proto__', () => {
    const parsed = parseBeaconPayload('{"events":[{"xid":"v","vtt":"abcdefgh","qrphe":{"a":"b"},"arr":[1],"__proto__":null,"n":null,"b":true}]}', {
      ...limits,
      maxValueChars: 5,
    });
    expect(parsed).toEqual({ ok: true, truncatedValues: 2, events: [{ xid: 'v', vtt: 'abcde', qrphe: '{"a":', arr: '[1]', n: null, b: true }] });
    expect(parsed.ok && Object.getPrototypeOf(parsed.events[0])).toBe(Object.prototype);
  });
});
