import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readUntil } from '@platform/testing';
import { settledAsset, streamUrl } from './support/assets';
import { api, sdk } from './support/context';
import { itOnceAcrossModes } from './support/modes';
import { ffprobe, makeClip } from './support/media';
import { putBytes, uploadWhen } from './support/uploads';
import { ReceivedWebhook, receivedWebhooks } from './support/webhook-receiver';

jest.setTimeout(180_000);

interface WebhookBody {
  type: string;
  object: { type: string; id: string };
  data: { id: string; status?: string; asset_id?: string; error?: { type: string; message: string } };
}
const bodyOf = (w: ReceivedWebhook) => JSON.parse(w.body) as WebhookBody;
/** How the webhook receiver is read: every 200 ms, for up to 30 s (the test's expectations then say what was missing). */
const HOOKS_POLL = { timeoutMs: 30_000, intervalMs: 200 };

function uploadWebhooks(uploadId: string, until: (types: string[]) => boolean): Promise<ReceivedWebhook[]> {
  return readUntil(
    () => receivedWebhooks().filter((w) => bodyOf(w).object.type === 'upload' && bodyOf(w).object.id === uploadId),
    (mine) => until(mine.map((w) => bodyOf(w).type)),
    HOOKS_POLL,
  );
}

/** Direct uploads (spec 2.6, 4.5) with the official SDK, the file sent as a script would send it. */
describe('direct uploads', () => {
  const mux = sdk();
  let dir: string;
  let clip: Buffer;
  let clipPath: string;
  // Created first, checked last: a 60 s timeout (the minimum) runs out while the other tests run.
  let expiring: { id: string; url?: string };

  beforeAll(async () => {
    expiring = await mux.video.uploads.create({ timeout: 60, cors_origin: '*' });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-uploads-'));
    clipPath = await makeClip(dir, 'clip', { seconds: 4, width: 640, height: 360, fps: 25 });
    clip = fs.readFileSync(clipPath);
  });

  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('creates a waiting upload with Mux’s defaults and echoes its asset settings', async () => {
    const upload = await mux.video.uploads.create({
      cors_origin: 'https://app.example.com',
      new_asset_settings: { playback_policies: ['public'], passthrough: 'from-upload' },
    });
    expect(upload).toMatchObject({
      status: 'waiting',
      timeout: 3600,
      cors_origin: 'https://app.example.com',
      new_asset_settings: { playback_policies: ['public'], passthrough: 'from-upload' },
    });
    expect(upload.url).toMatch(/^http:\/\/localhost:\d+\/upload\/[A-Za-z0-9]+\?signature=[A-Za-z0-9_-]+$/);
    expect(upload.asset_id).toBeUndefined();
    const listed = await mux.video.uploads.list({ limit: 100 });
    expect(listed.data.map((u) => u.id)).toContain(upload.id);
  });

  it('makes the asset from one PUT of the whole file: upload_id, ingest type, fields from the file, playable', async () => {
    const upload = await mux.video.uploads.create({ cors_origin: '*', new_asset_settings: { playback_policies: ['public'], passthrough: 'single-put' } });
    const put = await putBytes(upload.url!, clip);
    expect(put.status).toBe(200);

    const done = await uploadWhen(mux, upload.id, (u) => u.status !== 'waiting');
    expect(done.status).toBe('asset_created');
    const asset = await settledAsset(mux, done.asset_id!);
    const source = await ffprobe(clipPath);
    expect(asset).toMatchObject({ status: 'ready', upload_id: upload.id, ingest_type: 'on_demand_direct_upload', passthrough: 'single-put' });
    expect(asset.duration).toBeCloseTo(Number(source.format.duration), 0);
    expect(asset.tracks?.find((t) => t.type === 'video')).toMatchObject({ max_width: 640, max_height: 360 });
    expect((await mux.video.assets.list({ upload_id: upload.id })).data.map((a) => a.id)).toEqual([asset.id]);
    const played = await ffprobe(streamUrl(`${asset.playback_ids![0].id}.m3u8`));
    expect(played.streams.map((s) => s.codec_type).sort()).toEqual(['audio', 'video']);

    // the URL is spent
    expect((await putBytes(upload.url!, clip.subarray(0, 10), { 'content-range': `bytes 0-9/${clip.length}` })).status).toBe(410);
  });

  it('takes resumable chunks (308 with Range) and a status query, as UpChunk and GCS clients send them', async () => {
    const upload = await mux.video.uploads.create({ cors_origin: '*', new_asset_settings: { playback_policies: ['signed'] }, test: true });
    const cut = [0, 64 * 1024, 192 * 1024, clip.length];
    for (let i = 0; i < 3; i++) {
      const [start, end] = [cut[i], cut[i + 1] - 1];
      const res = await putBytes(upload.url!, clip.subarray(start, end + 1), { 'content-range': `bytes ${start}-${end}/${clip.length}` });
      if (i < 2) {
        expect(res.status).toBe(308);
        expect(res.headers.get('range')).toBe(`bytes=0-${end}`);
        const query = await putBytes(upload.url!, Buffer.alloc(0), { 'content-range': `bytes */${clip.length}` });
        expect([query.status, query.headers.get('range')]).toEqual([308, `bytes=0-${end}`]);
      } else {
        expect(res.status).toBe(200);
        expect(res.body.data).toMatchObject({ id: upload.id, status: 'asset_created' });
      }
    }
    const asset = await settledAsset(mux, (await mux.video.uploads.retrieve(upload.id)).asset_id!);
    expect(asset).toMatchObject({ status: 'ready', test: true, upload_id: upload.id, playback_ids: [{ policy: 'signed' }] });
    expect(asset.duration).toBeCloseTo(4, 0);
  });

  it('cancels a waiting upload: the URL is refused, no asset appears, a second cancel is 409', async () => {
    const upload = await mux.video.uploads.create({ cors_origin: '*' });
    expect((await putBytes(upload.url!, clip.subarray(0, 1000), { 'content-range': `bytes 0-999/${clip.length}` })).status).toBe(308);
    const cancelled = await mux.video.uploads.cancel(upload.id);
    expect(cancelled.status).toBe('cancelled');
    const late = await putBytes(upload.url!, clip.subarray(1000), { 'content-range': `bytes 1000-${clip.length - 1}/${clip.length}` });
    expect(late.status).toBe(410);
    expect(late.body.error.messages).toEqual(['The upload was cancelled']);
    const again = await api('PUT', `/video/v1/uploads/${upload.id}/cancel`);
    expect(again.status).toBe(409);
    expect(again.headers.get('x-should-retry')).toBe('false');
    expect(again.body.error.messages).toEqual(['Only a waiting upload can be cancelled; this one is cancelled']);
    expect((await mux.video.uploads.retrieve(upload.id)).status).toBe('cancelled');
    expect((await mux.video.assets.list({ upload_id: upload.id })).data).toEqual([]);
  });

  it('refuses a tampered or missing signature (403) and changes nothing', async () => {
    const upload = await mux.video.uploads.create({ cors_origin: '*' });
    const url = new URL(upload.url!);
    const signature = url.searchParams.get('signature')!;
    url.searchParams.set('signature', `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`);
    const tampered = await putBytes(url.toString(), clip);
    expect(tampered.status).toBe(403);
    expect(tampered.body.error).toEqual({ type: 'forbidden', messages: ['The upload URL’s signature is missing or wrong'] });
    url.searchParams.delete('signature');
    expect((await putBytes(url.toString(), clip)).status).toBe(403);
    expect((await mux.video.uploads.retrieve(upload.id)).status).toBe('waiting');
  });

  it('ends an upload of a file that is not media errored, with the error type and message', async () => {
    const upload = await mux.video.uploads.create({ cors_origin: '*', new_asset_settings: { playback_policies: ['public'] } });
    expect((await putBytes(upload.url!, Buffer.from('this is not a video\n'.repeat(100)), { 'content-type': 'text/plain' })).status).toBe(200);
    const errored = await uploadWhen(mux, upload.id, (u) => u.status === 'errored');
    expect(errored.status).toBe('errored');
    expect(errored.error).toEqual({ type: 'invalid_input', message: expect.stringMatching(/media/) });
    expect(errored.asset_id).toBeUndefined();
  });

  it('validates like asset creation: 400 for bad fields, 501 for features not built, nothing stored', async () => {
    const before = (await mux.video.uploads.list({ limit: 100 })).data.length;
    const cases: Array<[unknown, number, string]> = [
      [{ timeout: 59 }, 400, 'timeout: must be at least 60'],
      [{ timeout: 604801 }, 400, 'timeout: must be at most 604800'],
      [
        { new_asset_settings: { input: [{ url: 'https://example.com/a.mp4' }] } },
        400,
        'new_asset_settings.input[0].url: must be omitted for a direct upload (the uploaded file is the main input)',
      ],
      [{ new_asset_settings: { max_resolution_tier: '720p' } }, 400, 'new_asset_settings.max_resolution_tier'],
      [{ new_asset_settings: { playback_policy: ['everyone'] } }, 400, 'new_asset_settings.playback_policy'],
      [{ new_asset_settings: { playback_policies: ['drm'] } }, 501, 'new_asset_settings.playback_policies: DRM playback is not implemented yet'],
      [{ new_asset_settings: { mp4_support: 'standard', static_renditions: [{ resolution: 'highest' }] } }, 400, 'new_asset_settings.static_renditions'],
      [{ cors_origin: 'https://app.example.com/path' }, 400, 'cors_origin: must be "*" or an origin'],
      [{ unknown_field: 1 }, 400, 'unknown_field'],
    ];
    for (const [body, status, message] of cases) {
      const res = await api('POST', '/video/v1/uploads', { body });
      expect([res.status, (res.body.error.messages as string[]).join('\n')]).toEqual([status, expect.stringContaining(message)]);
    }
    expect((await mux.video.uploads.list({ limit: 100 })).data.length).toBe(before);
  });

  it('sends the upload webhooks, verified with the SDK', async () => {
    const secret = process.env.E2E_WEBHOOK_SECRET!;
    const made = await mux.video.uploads.create({ cors_origin: '*', new_asset_settings: { playback_policies: ['public'] } });
    await putBytes(made.url!, clip);
    const cancelled = await mux.video.uploads.create({ cors_origin: '*' });
    await mux.video.uploads.cancel(cancelled.id);

    const madeHooks = await uploadWebhooks(made.id, (t) => t.includes('video.upload.asset_created'));
    expect(madeHooks.map((w) => bodyOf(w).type)).toEqual(['video.upload.created', 'video.upload.asset_created']);
    const cancelHooks = await uploadWebhooks(cancelled.id, (t) => t.includes('video.upload.cancelled'));
    expect(cancelHooks.map((w) => bodyOf(w).type)).toEqual(['video.upload.created', 'video.upload.cancelled']);
    for (const hook of [...madeHooks, ...cancelHooks]) {
      const event = (await mux.webhooks.unwrap(hook.body, hook.headers, secret)) as unknown as WebhookBody;
      expect(event.object.type).toBe('upload');
    }
    expect(bodyOf(madeHooks[1]).data).toMatchObject({ id: made.id, status: 'asset_created', asset_id: expect.any(String) });
    // the asset of an upload has the asset webhooks too
    const assetId = bodyOf(madeHooks[1]).data.asset_id!;
    const assetCreated = () => receivedWebhooks().some((w) => bodyOf(w).type === 'video.asset.created' && bodyOf(w).object.id === assetId);
    expect(await readUntil(assetCreated, (seen) => seen, HOOKS_POLL)).toBe(true);
  });

  itOnceAcrossModes('times out an upload whose timeout passed without a file, and refuses its URL', async () => {
    const created = await mux.video.uploads.retrieve(expiring.id);
    expect(created.timeout).toBe(60);
    const timedOut = await uploadWhen(mux, expiring.id, (u) => u.status !== 'waiting', 90_000);
    expect(timedOut.status).toBe('timed_out');
    const late = await putBytes(expiring.url!, clip);
    expect(late.status).toBe(410);
    expect((await mux.video.assets.list({ upload_id: expiring.id })).data).toEqual([]);
  });
});
