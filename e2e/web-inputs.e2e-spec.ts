import fs from 'node:fs';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { readUntil } from '@platform/testing';
import { api, sdk } from './support/context';
import { bandLevel, Colour, colourAt, LiveSegments } from './support/live-signals';
import { ReceivedWebhook, receivedWebhooks } from './support/webhook-receiver';

/**
 * Web inputs (spec 2.9, 4.9, 3): a page is loaded in a real Chromium on its own display and sound sink and
 * streamed into a live stream through our RTMP ingest; what viewers get is read back from the live HLS with
 * ffmpeg. The page is red with a 1 kHz tone for its first 6 s, then green with a 500 Hz tone; after a reload,
 * blue (the load count survives in sessionStorage).
 */
const PAGE = `<!doctype html><html><body style="margin:0;background:#ff0000">
<script>
  const loads = Number(sessionStorage.getItem('loads') || 0) + 1;
  sessionStorage.setItem('loads', String(loads));
  const ctx = new AudioContext();
  const osc = ctx.createOscillator();
  osc.frequency.value = 1000;
  osc.connect(ctx.destination);
  osc.start();
  if (loads > 1) document.body.style.background = '#0000ff';
  else setTimeout(() => { document.body.style.background = '#00ff00'; osc.frequency.value = 500; }, 6000);
</script></body></html>`;

interface WebhookBody {
  type: string;
  object: { type: string; id: string };
  data: Record<string, unknown>;
}
const bodyOf = (w: ReceivedWebhook) => JSON.parse(w.body) as WebhookBody;

/** How the live HLS is read for the page's colours and tones: new segments every 500 ms, for up to 60 s. */
const SEGMENTS_POLL = { timeoutMs: 60_000, intervalMs: 500 };
/** How the webhook receiver is read for a web input's webhooks: every 200 ms, for up to 20 s. */
const HOOKS_POLL = { timeoutMs: 20_000, intervalMs: 200 };

jest.setTimeout(240_000);

describe('web inputs (spec 2.9, 4.9)', () => {
  const mux = sdk();
  let server: http.Server;
  let pageUrl: string;
  let dir: string;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'web-inputs-e2e-'));
    server = http.createServer((req, res) => {
      if (req.url === '/missing') return void res.writeHead(404).end('gone');
      res.writeHead(200, { 'content-type': 'text/html', 'cache-control': 'no-store' }).end(PAGE);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    pageUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/page`;
  });
  afterAll(() => {
    server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const get = async (id: string) => (await api('GET', `/video/v1/web-inputs/${id}`)).body.data as Record<string, unknown>;
  const statusBecomes = async (id: string, status: string, ms = 60_000) => {
    const last = await readUntil(
      () => get(id),
      (w) => w.status === status,
      { timeoutMs: ms, intervalMs: 250 },
    );
    if (last.status !== status) throw new Error(`web input ${id} is ${String(last.status)}, not ${status}, after ${ms} ms`);
  };
  const hooksOf = (id: string) => receivedWebhooks().filter((w) => bodyOf(w).object.id === id);

  const colourOf = (file: string, width: number, height: number): Colour => colourAt(file, width / 2, height / 2);
  /** Which of the page's two tones a segment carries. */
  const toneOf = (file: string): 1000 | 500 | 'none' => {
    const [high, low] = [bandLevel(file, 1000), bandLevel(file, 500)];
    if (high > -40 && high > low + 20) return 1000;
    if (low > -40 && low > high + 20) return 500;
    return 'none';
  };

  it('streams a page into a live stream: launching, streaming; colours and tones on the live HLS; reload seen on stream; url locked; shutdown', async () => {
    const stream = await mux.video.liveStreams.create({ playback_policies: ['public'], latency_mode: 'reduced', reconnect_window: 0 });
    const segments = new LiveSegments(stream.playback_ids![0].id, dir);
    const created = await api('POST', '/video/v1/web-inputs', {
      body: { url: pageUrl, live_stream_id: stream.id, resolution: '1280x720', passthrough: 'wi-1' },
    });
    expect(created.status).toBe(201);
    const webInput = created.body.data as { id: string; created_at: string };
    expect(webInput).toEqual({
      id: expect.any(String),
      created_at: expect.stringMatching(/^\d+$/),
      url: pageUrl,
      auto_launch: false,
      live_stream_id: stream.id,
      status: 'idle',
      passthrough: 'wi-1',
      resolution: '1280x720',
      timeout: 3600,
    });
    expect(await get(webInput.id)).toEqual(created.body.data);

    expect(await api('PUT', `/video/v1/web-inputs/${webInput.id}/launch`)).toMatchObject({ status: 200, body: { data: {} } });
    expect(['launching', 'streaming']).toContain((await get(webInput.id)).status);
    const twice = await api('PUT', `/video/v1/web-inputs/${webInput.id}/launch`);
    expect(twice.status).toBe(409);
    await statusBecomes(webInput.id, 'streaming');
    expect((await mux.video.liveStreams.retrieve(stream.id)).status).toBe('active');

    const locked = await api('PUT', `/video/v1/web-inputs/${webInput.id}/url`, { body: { url: `${pageUrl}?other` } });
    expect({ status: locked.status, type: locked.body.error.type }).toEqual({ status: 409, type: 'conflict' });

    // the first load: red and 1 kHz, then green and 500 Hz
    const seen: Array<{ colour: string; tone: string | number }> = [];
    const seeNext = async () => {
      for (const file of await segments.next()) seen.push({ colour: colourOf(file, 1280, 720), tone: toneOf(file) });
      return seen;
    };
    await readUntil(seeNext, (all) => all.some((s) => s.colour === 'green'), SEGMENTS_POLL);
    expect(seen).toContainEqual({ colour: 'red', tone: 1000 });
    expect(seen).toContainEqual({ colour: 'green', tone: 500 });
    expect(seen.findIndex((s) => s.colour === 'red')).toBeLessThan(seen.findIndex((s) => s.colour === 'green'));

    // a reload shows on the stream (blue), and the encoder session goes on: the live stream never left active
    expect(await api('PUT', `/video/v1/web-inputs/${webInput.id}/reload`)).toMatchObject({ status: 200, body: { data: {} } });
    const afterReload: string[] = [];
    const seeNextColours = async () => {
      for (const file of await segments.next()) afterReload.push(colourOf(file, 1280, 720));
      return afterReload;
    };
    await readUntil(seeNextColours, (colours) => colours.includes('blue'), SEGMENTS_POLL);
    expect(afterReload).toContain('blue');
    expect((await get(webInput.id)).status).toBe('streaming');

    expect(await api('PUT', `/video/v1/web-inputs/${webInput.id}/shutdown`)).toMatchObject({ status: 200, body: { data: {} } });
    expect((await get(webInput.id)).status).toBe('idle');
    const changed = await api('PUT', `/video/v1/web-inputs/${webInput.id}/url`, { body: { url: `${pageUrl}?other` } });
    expect({ status: changed.status, url: changed.body.data.url }).toEqual({ status: 200, url: `${pageUrl}?other` });

    const want = ['video.web_input.created', 'video.web_input.launching', 'video.web_input.streaming', 'video.web_input.idle', 'video.web_input.updated'];
    const mine = await readUntil(
      () => hooksOf(webInput.id),
      (got) => got.length >= want.length,
      HOOKS_POLL,
    );
    const hooks = mine.map(bodyOf);
    expect(hooks.map((h) => h.type)).toEqual(want);
    expect(hooks.map((h) => [h.object, h.data.passthrough, h.data.status])).toEqual([
      [{ type: 'web_input', id: webInput.id }, 'wi-1', 'idle'],
      [{ type: 'web_input', id: webInput.id }, 'wi-1', 'launching'],
      [{ type: 'web_input', id: webInput.id }, 'wi-1', 'streaming'],
      [{ type: 'web_input', id: webInput.id }, 'wi-1', 'idle'],
      [{ type: 'web_input', id: webInput.id }, 'wi-1', 'idle'],
    ]);
  });

  it('stops by itself after its timeout; auto_launch launches at creation; delete stops it first', async () => {
    const stream = await mux.video.liveStreams.create({ playback_policies: ['public'], reconnect_window: 0 });
    const created = await api('POST', '/video/v1/web-inputs', {
      body: { url: pageUrl, live_stream_id: stream.id, resolution: '720x720', timeout: 6, auto_launch: true },
    });
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    expect(created.body.data).toMatchObject({ auto_launch: true, timeout: 6, resolution: '720x720' });
    expect(['launching', 'streaming']).toContain(created.body.data.status);
    await statusBecomes(id, 'streaming');
    const streamingSince = Date.now();
    await statusBecomes(id, 'idle', 30_000);
    // the 6 s count from the page's load, a moment before the ingest has the publish: neither cut short nor overrun
    const streamed = Date.now() - streamingSince;
    expect({ atLeast3s: streamed >= 3000, atMost12s: streamed <= 12_000 }).toEqual({ atLeast3s: true, atMost12s: true });

    expect(await api('PUT', `/video/v1/web-inputs/${id}/launch`)).toMatchObject({ status: 200, body: { data: {} } });
    await statusBecomes(id, 'streaming');
    expect((await api('DELETE', `/video/v1/web-inputs/${id}`)).status).toBe(204);
    expect((await api('GET', `/video/v1/web-inputs/${id}`)).status).toBe(404);
    const hooks = await readUntil(
      () => hooksOf(id),
      (mine) => mine.some((w) => bodyOf(w).type === 'video.web_input.deleted'),
      HOOKS_POLL,
    );
    const types = hooks.map((w) => bodyOf(w).type);
    expect(types.slice(-2)).toEqual(['video.web_input.idle', 'video.web_input.deleted']);
  });

  it('goes back to idle when the page cannot be loaded; refuses bad requests and changes nothing', async () => {
    const stream = await mux.video.liveStreams.create({ playback_policies: ['public'] });
    const created = await api('POST', '/video/v1/web-inputs', { body: { url: pageUrl.replace('/page', '/missing'), live_stream_id: stream.id } });
    const id = created.body.data.id as string;
    expect(await api('PUT', `/video/v1/web-inputs/${id}/launch`)).toMatchObject({ status: 200, body: { data: {} } });
    await statusBecomes(id, 'idle', 60_000);
    expect((await mux.video.liveStreams.retrieve(stream.id)).status).toBe('idle');
    const hooks = await readUntil(
      () => hooksOf(id),
      (mine) => mine.some((w) => bodyOf(w).type === 'video.web_input.idle'),
      HOOKS_POLL,
    );
    expect(hooks.map((w) => bodyOf(w).type)).toEqual(['video.web_input.created', 'video.web_input.launching', 'video.web_input.idle']);
    const countBefore = ((await api('GET', '/video/v1/web-inputs?limit=100')).body.data as unknown[]).length;

    expect((await api('PUT', `/video/v1/web-inputs/${id}/reload`)).status).toBe(409);
    const noStream = await api('POST', '/video/v1/web-inputs', { body: { url: pageUrl, live_stream_id: 'no-such-stream' } });
    expect({ status: noStream.status, messages: noStream.body.error.messages }).toEqual({
      status: 400,
      messages: ['live_stream_id: no live stream no-such-stream'],
    });
    const badResolution = await api('POST', '/video/v1/web-inputs', { body: { url: pageUrl, live_stream_id: stream.id, resolution: '640x480' } });
    expect(badResolution.status).toBe(400);
    expect((await api('GET', `/video/v1/web-inputs/${id}`)).body.data.url).toBe(pageUrl.replace('/page', '/missing'));
    expect(((await api('GET', '/video/v1/web-inputs?limit=100')).body.data as unknown[]).length).toBe(countBefore);
    expect((await api('GET', '/video/v1/web-inputs/nope')).status).toBe(404);
  });
});
