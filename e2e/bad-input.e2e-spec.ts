import http from 'node:http';
import Mux from '@mux/mux-node';
import { api, platform, sdk } from './support/context';

const STREAM_URL = () => process.env.E2E_STREAM_URL!;

/**
 * Drills 6 and 7 of issue 12, repeated on the running platform: a NUL byte anywhere, an undecodable
 * path, a method a path does not take. Each gets a 4xx with the error body, and changes nothing.
 */
describe('bad input gets a clear 4xx and changes nothing', () => {
  let mux: Mux;
  beforeAll(() => {
    mux = sdk();
  });

  it.each([
    ['GET', '/video/v1/assets/%00'],
    ['GET', '/video/v1/live-streams/%00'],
    ['GET', '/video/v1/uploads/a%00b'],
    ['GET', '/video/v1/playback-restrictions/%00'],
    ['GET', '/system/v1/signing-keys/%00'],
    ['GET', '/video/v1/transcription-vocabularies/%00'],
    ['GET', '/video/v1/playback-ids/%00'],
    ['DELETE', '/video/v1/assets/%00'],
    ['GET', '/video/v1/assets?live_stream_id=%00'],
  ])('%s %s (a NUL byte in the URL) → 400 naming it', async (method, path) => {
    const res = await api(method, path);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { type: 'invalid_parameters', messages: ['the URL: must not contain a NUL character (\\u0000)'] } });
  });

  it('a NUL inside a JSON body → 400, and nothing is created', async () => {
    const before = await mux.video.liveStreams.list({ limit: 100 });
    const res = await api('POST', '/video/v1/live-streams', { body: { passthrough: 'a\u0000b', playback_policies: ['public'] } });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({ type: 'invalid_parameters', messages: ['body: must not contain a NUL character (\\u0000)'] });
    const after = await mux.video.liveStreams.list({ limit: 100 });
    expect(after.data.map((s) => s.id)).toEqual(before.data.map((s) => s.id));
  });

  it('an undecodable path on the playback host (%zz) → 400 with the error body', async () => {
    const res = await fetch(`${STREAM_URL()}/%zz.m3u8`);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { type: string } }).error.type).toBe('invalid_parameters');
  });

  it('TRACE on a documented path → 405 with Allow', async () => {
    // fetch refuses to send TRACE; node:http does, as curl or a scanner would
    const auth = `Basic ${Buffer.from(`${platform.tokenId}:${platform.tokenSecret}`).toString('base64')}`;
    const res = await new Promise<http.IncomingMessage>((resolve, reject) =>
      http
        .request(`${platform.baseUrl}/video/v1/assets`, { method: 'TRACE', headers: { authorization: auth } }, resolve)
        .once('error', reject)
        .end(),
    );
    let text = '';
    for await (const chunk of res) text += String(chunk);
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toMatch(/GET/);
    expect((JSON.parse(text) as { error: { type: string } }).error.type).toBe('method_not_allowed');
  });

  it('a limit above the maximum is clamped, not refused (transcription vocabularies: 10)', async () => {
    const res = await api('GET', '/video/v1/transcription-vocabularies?limit=500');
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body.data)).toBe(true);
  });

  it('an unknown query parameter → 400 naming it', async () => {
    const res = await api('GET', '/video/v1/assets?limit=5&colour=red');
    expect(res.status).toBe(400);
    expect(res.body.error.messages).toEqual(['colour: is not a known parameter']);
  });

  it(`the platform is still healthy after all that (${platform.mode} mode)`, async () => {
    const res = await fetch(`${platform.baseUrl}/healthz`);
    expect(res.status).toBe(200);
  });
});
