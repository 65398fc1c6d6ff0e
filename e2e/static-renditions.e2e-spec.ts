import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Mux from '@mux/mux-node';
import { streamUrl } from './support/assets';
import { api, sdk } from './support/context';
import { eventually, pushRtmp } from './support/encoder';
import { segmentsListed } from './support/live-playlists';
import { ffprobe, FileServer, makeClip, serveFiles } from './support/media';
import { itOnceAcrossModes } from './support/modes';
import { isFaststart } from './support/mp4';
import { receivedWebhooks } from './support/webhook-receiver';

jest.setTimeout(240_000);

type Asset = Awaited<ReturnType<Mux['video']['assets']['retrieve']>>;
type StaticFile = NonNullable<NonNullable<Asset['static_renditions']>['files']>[number];
interface WebhookBody {
  type: string;
  object: { type: string; id: string };
  data: Record<string, unknown>;
}

const SECONDS = 3;
/** MASTER_ACCESS_SECONDS of the e2e platform (support/global-setup.ts). */
const MASTER_WINDOW_SECONDS = 15;

/**
 * Static MP4 renditions and master access through the official SDK and the playback host: one 1280x720
 * asset (its ladder 720p/540p/360p/270p) carries mp4_support, then Static Renditions API renditions, and a
 * temporary master; every file is read back with ffprobe and its boxes.
 */
describe('static MP4 renditions and master access', () => {
  const mux = sdk();
  let dir: string;
  let files: FileServer;
  let asset: Asset;
  let publicId: string;
  let signedId: string;

  const get = (id: string) => mux.video.assets.retrieve(id);
  const until = async (id: string, check: (a: Asset) => boolean, timeoutMs = 120_000): Promise<Asset> => {
    const a = await eventually(() => get(id), check, timeoutMs);
    if (!check(a)) throw new Error(`asset ${id}: timed out; last ${JSON.stringify(a)}`);
    return a;
  };
  const bytes = async (url: string, init?: RequestInit) => {
    const res = await fetch(url, init);
    return { res, body: Buffer.from(await res.arrayBuffer()) };
  };
  const webhooksOf = (assetId: string, ids: string[] = []): WebhookBody[] =>
    receivedWebhooks()
      .map((w) => JSON.parse(w.body) as WebhookBody)
      .filter((e) => e.object.id === assetId || ids.includes(e.object.id) || e.data.asset_id === assetId);

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-static-'));
    await makeClip(dir, 'hd', { seconds: SECONDS, width: 1280, height: 720 });
    files = await serveFiles(dir);
  });
  afterAll(async () => {
    await files?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('makes mp4_support standard’s low, medium and high.mp4 of a 720p source, faststart, sized from the stored files', async () => {
    const created = await mux.video.assets.create({
      inputs: [{ url: files.url('hd.mp4') }],
      playback_policies: ['public', 'signed'],
      mp4_support: 'standard',
      master_access: 'temporary',
    });
    expect(created.static_renditions).toEqual({ status: 'preparing', files: [] });
    expect(created.master).toEqual({ status: 'preparing' });
    [publicId, signedId] = created.playback_ids!.map((p) => p.id);
    asset = await until(created.id, (a) => a.static_renditions?.status !== 'preparing' && a.master?.status !== 'preparing');
    expect(asset.status).toBe('ready');
    expect(asset.static_renditions!.status).toBe('ready');
    const listed = asset.static_renditions!.files!;
    expect(listed.map((f) => [f.name, f.ext, f.width, f.height])).toEqual([
      ['low.mp4', 'mp4', 640, 360],
      ['medium.mp4', 'mp4', 960, 540],
      ['high.mp4', 'mp4', 1280, 720],
    ]);
    for (const file of listed) {
      // mp4_support files carry no per-file fields of the Static Renditions API
      expect(Object.keys(file).sort()).toEqual(['bitrate', 'ext', 'filesize', 'height', 'name', 'width']);
      const { res, body } = await bytes(streamUrl(`${publicId}/${file.name}`));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('video/mp4');
      expect(file.filesize).toBe(String(body.length));
      expect(isFaststart(body)).toBe(true);
      const probed = await ffprobe(streamUrl(`${publicId}/${file.name}`));
      expect(probed.streams.map((s) => [s.codec_type, s.codec_name, s.width, s.height])).toEqual([
        ['video', 'h264', file.width, file.height],
        ['audio', 'aac', undefined, undefined],
      ]);
      expect(Number(probed.format.duration)).toBeCloseTo(SECONDS, 0);
      expect(file.bitrate).toBeCloseTo((body.length * 8) / Number(probed.format.duration), -4);
    }
  });

  it('serves them with ranges, HEAD and ?download=, the signed id with its token only', async () => {
    const high = asset.static_renditions!.files!.find((f) => f.name === 'high.mp4')!;
    const size = Number(high.filesize);
    const head = await fetch(streamUrl(`${publicId}/high.mp4`), { method: 'HEAD' });
    expect([head.status, head.headers.get('content-length'), head.headers.get('accept-ranges')]).toEqual([200, String(size), 'bytes']);
    const whole = (await bytes(streamUrl(`${publicId}/high.mp4`))).body;
    const part = await bytes(streamUrl(`${publicId}/high.mp4`), { headers: { range: 'bytes=100-1099' } });
    expect([part.res.status, part.res.headers.get('content-range')]).toEqual([206, `bytes 100-1099/${size}`]);
    expect(part.body.equals(whole.subarray(100, 1100))).toBe(true);
    expect((await fetch(streamUrl(`${publicId}/high.mp4`), { headers: { 'if-none-match': head.headers.get('etag')! } })).status).toBe(304);
    const download = await fetch(streamUrl(`${publicId}/high.mp4?download=holiday`));
    expect(download.headers.get('content-disposition')).toBe('attachment; filename="holiday.mp4"');

    const refused = await fetch(streamUrl(`${signedId}/high.mp4`));
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { messages: string[] } }).error.messages).toEqual(['Token is required for a signed playback ID']);
    const key = await mux.system.signingKeys.create();
    const token = await mux.jwt.signPlaybackId(signedId, { keyId: key.id, keySecret: key.private_key! });
    const signed = await bytes(streamUrl(`${signedId}/high.mp4?token=${token}`));
    expect(signed.res.status).toBe(200);
    expect(signed.body.equals(whole)).toBe(true); // (toEqual on a megabyte Buffer takes jest seconds)

    const missing = await fetch(streamUrl(`${publicId}/audio.m4a`));
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({
      error: { type: 'not_found', messages: [`Static rendition audio.m4a of playback ID ${publicId} not found (or not ready)`] },
    });
  });

  it('gives a master MP4 URL of the original (source) rendition that works without credentials, until master access is none', async () => {
    // made with the asset; its window may have passed meanwhile: ask for a fresh one
    expect(asset.master).toEqual({ status: 'ready', url: expect.stringMatching(/\/master\/[A-Za-z0-9_-]{43}\/master\.mp4$/) });
    await mux.video.assets.updateMasterAccess(asset.id, { master_access: 'none' });
    const preparing = await mux.video.assets.updateMasterAccess(asset.id, { master_access: 'temporary' });
    expect(preparing.master).toEqual({ status: 'preparing' });
    const ready = await until(asset.id, (a) => a.master?.status === 'ready', 60_000);
    expect(ready.master!.url).not.toBe(asset.master!.url);
    const url = ready.master!.url!;
    const { res, body } = await bytes(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="master.mp4"');
    expect(isFaststart(body)).toBe(true);
    const probed = await ffprobe(url);
    expect(probed.streams.map((s) => [s.codec_name, s.width, s.height])).toEqual([
      ['h264', 1280, 720],
      ['aac', undefined, undefined],
    ]);
    expect(Number(probed.format.duration)).toBeCloseTo(SECONDS, 0);

    const none = await mux.video.assets.updateMasterAccess(asset.id, { master_access: 'none' });
    expect(none.master_access).toBe('none');
    expect(none.master).toBeUndefined();
    expect((await fetch(url)).status).toBe(404);
  });

  it('deletes mp4_support’s files with none, then makes Static Renditions API renditions: remuxed, encoded, skipped, audio', async () => {
    const none = await mux.video.assets.updateMP4Support(asset.id, { mp4_support: 'none' });
    expect(none.static_renditions).toBeUndefined();
    expect((await fetch(streamUrl(`${publicId}/low.mp4`))).status).toBe(404);

    const highest = await mux.video.assets.createStaticRendition(asset.id, { resolution: 'highest' });
    expect(highest).toEqual({
      id: expect.any(String),
      name: 'highest.mp4',
      ext: 'mp4',
      type: 'standard',
      status: 'preparing',
      resolution: 'highest',
      resolution_tier: '720p',
    });
    const p480 = await mux.video.assets.createStaticRendition(asset.id, { resolution: '480p', passthrough: 'small' });
    const p1080 = await mux.video.assets.createStaticRendition(asset.id, { resolution: '1080p' });
    const audio = await mux.video.assets.createStaticRendition(asset.id, { resolution: 'audio-only' });
    const duplicate = await api('POST', `/video/v1/assets/${asset.id}/static-renditions`, { body: { resolution: 'highest' } });
    expect(duplicate.status).toBe(409);

    const settled = (f: StaticFile) => f.status !== 'preparing';
    const after = await until(asset.id, (a) => (a.static_renditions?.files ?? []).length === 4 && a.static_renditions!.files!.every(settled));
    const byId = new Map(after.static_renditions!.files!.map((f) => [f.id, f]));
    expect(after.static_renditions!.status).toBe('disabled');
    expect(byId.get(highest.id)).toMatchObject({ status: 'ready', width: 1280, height: 720, resolution_tier: '720p' });
    expect(byId.get(p480.id)).toMatchObject({ status: 'ready', width: 852, height: 480, type: 'advanced', passthrough: 'small', resolution_tier: '720p' });
    expect(byId.get(p1080.id)).toEqual({
      id: p1080.id,
      name: '1080p.mp4',
      ext: 'mp4',
      type: 'advanced',
      status: 'skipped',
      resolution: '1080p',
      resolution_tier: '1080p',
    });
    expect(byId.get(audio.id)).toMatchObject({ name: 'audio.m4a', ext: 'm4a', status: 'ready', resolution_tier: 'audio-only' });
    expect(byId.get(audio.id)!.width).toBeUndefined();

    const m4a = await bytes(streamUrl(`${publicId}/audio.m4a`));
    expect([m4a.res.status, m4a.res.headers.get('content-type'), isFaststart(m4a.body)]).toEqual([200, 'audio/mp4', true]);
    expect((await ffprobe(streamUrl(`${publicId}/audio.m4a`))).streams.map((s) => s.codec_name)).toEqual(['aac']);
    const encoded = await ffprobe(streamUrl(`${publicId}/480p.mp4`));
    expect(encoded.streams.map((s) => [s.codec_name, s.width, s.height])).toEqual([
      ['h264', 852, 480],
      ['aac', undefined, undefined],
    ]);
    expect(Number(encoded.format.duration)).toBeCloseTo(SECONDS, 0);
    expect((await fetch(streamUrl(`${publicId}/1080p.mp4`))).status).toBe(404);

    await mux.video.assets.deleteStaticRendition(asset.id, p480.id!);
    expect((await get(asset.id)).static_renditions!.files!.map((f) => f.id)).not.toContain(p480.id);
    expect((await fetch(streamUrl(`${publicId}/480p.mp4`))).status).toBe(404);

    // every webhook of these, as the SDK reads it
    const ids = [highest.id!, p480.id!, p1080.id!, audio.id!];
    const expected = [
      'video.asset.static_renditions.preparing',
      'video.asset.static_renditions.ready',
      'video.asset.static_renditions.deleted',
      'video.asset.static_rendition.created',
      'video.asset.static_rendition.ready',
      'video.asset.static_rendition.skipped',
      'video.asset.static_rendition.deleted',
      'video.asset.master.preparing',
      'video.asset.master.ready',
      'video.asset.master.deleted',
    ];
    const hooks = await eventually(
      () => Promise.resolve(webhooksOf(asset.id, ids)),
      (hs) => expected.every((t) => hs.some((h) => h.type === t)),
      30_000,
    );
    expect([...new Set(hooks.map((h) => h.type).filter((t) => expected.includes(t)))].sort()).toEqual([...expected].sort());
    for (const raw of receivedWebhooks().filter((w) => hooks.some((h) => w.body.includes(h.object.id) && expected.includes(JSON.parse(w.body).type)))) {
      const event = (await mux.webhooks.unwrap(raw.body, raw.headers, process.env.E2E_WEBHOOK_SECRET)) as unknown as WebhookBody;
      if (event.type.startsWith('video.asset.static_rendition.')) {
        expect(event.object).toEqual({ type: 'static_rendition', id: event.data.id });
        expect(event.data.asset_id).toBe(asset.id);
      }
    }
  });

  itOnceAcrossModes('ends master access after its window: the URL stops, master_access returns to none', async () => {
    await mux.video.assets.updateMasterAccess(asset.id, { master_access: 'temporary' });
    const ready = await until(asset.id, (a) => a.master?.status === 'ready', 60_000);
    const url = ready.master!.url!;
    expect((await fetch(url, { method: 'HEAD' })).status).toBe(200);
    const expired = await until(asset.id, (a) => a.master === undefined, (MASTER_WINDOW_SECONDS + 20) * 1000);
    expect(expired.master_access).toBe('none');
    expect((await fetch(url)).status).toBe(404);
  });

  it('sets a live stream’s static renditions for its next recordings with the SDK’s routes (not beside mp4_support)', async () => {
    const stream = await mux.video.liveStreams.create({ playback_policies: ['public'] });
    const set = await mux.video.liveStreams.updateNewAssetSettingsStaticRenditions(stream.id, {
      static_renditions: [{ resolution: 'highest' }, { resolution: 'audio-only', passthrough: 'podcast' }],
    });
    expect(set.new_asset_settings).toEqual({ static_renditions: [{ resolution: 'highest' }, { resolution: 'audio-only', passthrough: 'podcast' }] });
    await mux.video.liveStreams.deleteNewAssetSettingsStaticRenditions(stream.id);
    expect((await mux.video.liveStreams.retrieve(stream.id)).new_asset_settings).toEqual({});
    const legacy = await mux.video.liveStreams.create({ new_asset_settings: { mp4_support: 'standard' } });
    const refused = await api('PUT', `/video/v1/live-streams/${legacy.id}/new-asset-settings/static-renditions`, {
      body: { static_renditions: [{ resolution: 'highest' }] },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.messages).toEqual(['new_asset_settings.static_renditions: give static_renditions or mp4_support, not both']);
    await mux.video.liveStreams.delete(stream.id);
    await mux.video.liveStreams.delete(legacy.id);
  });

  itOnceAcrossModes('makes mp4_support’s files of a live stream’s recording once it ends', async () => {
    const stream = await mux.video.liveStreams.create({
      playback_policies: ['public'],
      latency_mode: 'reduced',
      new_asset_settings: { playback_policies: ['public'], mp4_support: 'standard' },
    });
    const encoder = pushRtmp(stream.stream_key, { size: '640x360' });
    try {
      await eventually(
        () => segmentsListed(stream.playback_ids![0].id),
        (n) => n >= 2,
        30_000,
      );
    } finally {
      await encoder.stop();
    }
    const recordingId = (
      await eventually(
        () => mux.video.liveStreams.retrieve(stream.id),
        (s) => s.status === 'idle' && (s.recent_asset_ids ?? []).length > 0,
        60_000,
      )
    ).recent_asset_ids![0];
    const recording = await until(recordingId, (a) => a.static_renditions?.status === 'ready', 120_000);
    expect(recording).toMatchObject({ mp4_support: 'standard', ingest_type: 'live_rtmp' });
    expect(recording.static_renditions!.files!.map((f) => [f.name, f.width, f.height])).toEqual([['low.mp4', 640, 360]]);
    const url = streamUrl(`${recording.playback_ids![0].id}/low.mp4`);
    const probed = await ffprobe(url);
    expect(probed.streams.map((s) => s.codec_name)).toEqual(['h264', 'aac']);
    expect(Number(probed.format.duration)).toBeCloseTo(recording.duration!, 0);
    expect(isFaststart((await bytes(url)).body)).toBe(true);
    await mux.video.liveStreams.delete(stream.id);
  });

  it('errors what an asset that cannot be ingested asked for, with the SDK’s webhooks', async () => {
    const created = await mux.video.assets.create({
      inputs: [{ url: files.url('absent.mp4') }],
      mp4_support: 'capped-1080p',
      master_access: 'temporary',
    });
    const extra = await mux.video.assets.create({ inputs: [{ url: files.url('absent.mp4') }], static_renditions: [{ resolution: 'highest' }] });
    const errored = await until(created.id, (a) => a.status !== 'preparing', 60_000);
    expect(errored).toMatchObject({ status: 'errored', static_renditions: { status: 'errored', files: [] }, master: { status: 'errored' } });
    expect((await until(extra.id, (a) => a.status !== 'preparing', 60_000)).static_renditions!.files![0].status).toBe('errored');
    const refused = await api('PUT', `/video/v1/assets/${created.id}/master-access`, { body: { master_access: 'temporary' } });
    expect(refused.status).toBe(409);

    const types = ['video.asset.static_renditions.errored', 'video.asset.master.errored', 'video.asset.static_rendition.errored'];
    const hooks = await eventually(
      () => Promise.resolve([...webhooksOf(created.id), ...webhooksOf(extra.id)]),
      (hs) => types.every((t) => hs.some((h) => h.type === t)),
      30_000,
    );
    expect(types.filter((t) => !hooks.some((h) => h.type === t))).toEqual([]);
    for (const raw of receivedWebhooks().filter(
      (w) => types.includes((JSON.parse(w.body) as WebhookBody).type) && (w.body.includes(created.id) || w.body.includes(extra.id)),
    )) {
      const event = (await mux.webhooks.unwrap(raw.body, raw.headers, process.env.E2E_WEBHOOK_SECRET)) as unknown as WebhookBody;
      expect(types).toContain(event.type);
    }
  });
});
