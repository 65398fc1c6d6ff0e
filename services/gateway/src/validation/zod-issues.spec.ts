import { z } from 'zod';
import { fieldPath, parseWith } from './zod-issues';

describe('validation messages', () => {
  const schema = z
    .object({
      latency_mode: z.enum(['low', 'reduced', 'standard']).optional(),
      reconnect_window: z.number().min(0).max(1800).optional(),
      passthrough: z.string().max(255).optional(),
      targets: z.array(z.object({ url: z.string() }).strict()).optional(),
    })
    .strict();

  it.each([
    [{ latency_mode: 'ultra' }, 'latency_mode: must be one of "low", "reduced", "standard"'],
    [{ reconnect_window: 1801 }, 'reconnect_window: must be at most 1800'],
    [{ reconnect_window: -1 }, 'reconnect_window: must be at least 0'],
    [{ reconnect_window: '60' }, 'reconnect_window: must be a number, not a string'],
    [JSON.parse('{"reconnect_window": 1e400}'), 'reconnect_window: must be a finite number'],
    [{ passthrough: 'x'.repeat(256) }, 'passthrough: must be at most 255 characters'],
    [{ targets: [{ url: 'rtmp://a' }, { url: 'rtmp://b', key: 'k' }] }, 'targets[1].key: is not a known field'],
    [{ targets: [{}] }, 'targets[0].url: is required'],
    [null, 'body: must be an object, not null'],
  ])('%j → %s', (value, message) => {
    expect(parseWith(schema, value, 'body')).toEqual({ ok: false, messages: [message] });
  });

  describe('a value that may be one thing or a list of them', () => {
    const policy = z.enum(['public', 'signed']);
    const oneOrMany = z.object({ policy: z.union([z.array(policy), z.string().pipe(policy)], { error: 'must be a policy or an array of policies' }) }).strict();

    it.each([
      [{ policy: ['public', 'everyone'] }, 'policy[1]: must be one of "public", "signed"'],
      [{ policy: 'everyone' }, 'policy: must be one of "public", "signed"'],
      [{ policy: 5 }, 'policy: must be a policy or an array of policies'],
      [{ policy: { a: 1 } }, 'policy: must be a policy or an array of policies'],
    ])('%j → %s', (value, message) => {
      expect(parseWith(oneOrMany, value, 'body')).toEqual({ ok: false, messages: [message] });
    });

    it('accepts either form', () => {
      expect(parseWith(oneOrMany, { policy: 'signed' }, 'body')).toEqual({ ok: true, value: { policy: 'signed' } });
      expect(parseWith(oneOrMany, { policy: ['signed'] }, 'body')).toEqual({ ok: true, value: { policy: ['signed'] } });
    });
  });

  it('writes paths as a caller does', () => {
    expect(fieldPath(['referrer', 'allowed_domains', 2])).toBe('referrer.allowed_domains[2]');
    expect(fieldPath([0, 'a'])).toBe('[0].a');
    expect(fieldPath([])).toBe('');
  });
});
