import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readUntil } from '@platform/testing';
import { playlistUris, resolveUri, settledAsset, streamUrl } from './support/assets';
import { api, sdk } from './support/context';
import { FileServer, makeClip, serveFiles } from './support/media';

jest.setTimeout(240_000);

/** The playback host reports every DELIVERY_REPORT_MS (1 s in e2e) and the lag is 0 (DELIVERY_USAGE_LAG_SECONDS). */
const REPORT_WAIT_MS = 30_000;

const text = async (url: string) => {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  return res.text();
};

describe('delivery usage after playback (spec 000 §2.11, §4.6)', () => {
  const mux = sdk();
  let dir: string;
  let files: FileServer;
  let assetId: string;
  let playbackId: string;
  let served = 0;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-delivery-'));
    await makeClip(dir, 'clip', { seconds: 6, width: 1280, height: 720, fps: 30 });
    files = await serveFiles(dir);
    const created = await mux.video.assets.create({ inputs: [{ url: files.url('clip.mp4') }], playback_policies: ['public'], passthrough: 'e2e-delivery' });
    assetId = created.id;
    playbackId = created.playback_ids![0].id;
    expect((await settledAsset(mux, assetId)).status).toBe('ready');
  });

  afterAll(async () => {
    await files?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('lists the seconds a player fetched, by tier, for the asset, through the SDK', async () => {
    // play it as a player does: master, the first variant, every segment of it
    const masterUrl = streamUrl(`${playbackId}.m3u8`);
    const variantUrl = resolveUri(masterUrl, playlistUris(await text(masterUrl))[0]);
    const variant = await text(variantUrl);
    served = [...variant.matchAll(/#EXTINF:([\d.]+)/g)].reduce((sum, m) => sum + Number(m[1]), 0);
    for (const uri of playlistUris(variant)) expect((await fetch(resolveUri(variantUrl, uri))).status).toBe(200);

    const now = Math.floor(Date.now() / 1000);
    const record = await readUntil(
      async () => {
        const page = await mux.video.deliveryUsage.list({ timeframe: [String(now - 3 * 3600), String(Math.floor(Date.now() / 1000))], asset_id: assetId });
        return page.data.find((r) => r.asset_id === assetId);
      },
      (r) => r !== undefined,
      { timeoutMs: REPORT_WAIT_MS, intervalMs: 1000 },
    );
    expect(record).toBeDefined();
    expect(record!.delivered_seconds).toBeCloseTo(served, 1);
    expect(Object.values(record!.delivered_seconds_by_resolution).reduce((a, b) => a + (b ?? 0), 0)).toBeCloseTo(served, 1);
    expect(record).toMatchObject({
      asset_state: 'ready',
      passthrough: 'e2e-delivery',
      asset_resolution_tier: '720p',
      created_at: expect.stringMatching(/^\d+$/),
    });
  });

  it('still lists a deleted asset, as deleted', async () => {
    await mux.video.assets.delete(assetId);
    const now = Math.floor(Date.now() / 1000);
    const state = await readUntil(
      async () => (await mux.video.deliveryUsage.list({ timeframe: [String(now - 3 * 3600), String(now)], asset_id: assetId })).data[0]?.asset_state,
      (s) => s === 'deleted',
      { timeoutMs: REPORT_WAIT_MS, intervalMs: 500 },
    );
    expect(state).toBe('deleted');
  });

  it('refuses asset_id with live_stream_id, and a window ending in the future, with 400', async () => {
    const both = await api('GET', `/video/v1/delivery-usage?asset_id=${assetId}&live_stream_id=x`);
    expect(both.status).toBe(400);
    expect(both.body.error.type).toBe('invalid_parameters');
    const now = Math.floor(Date.now() / 1000);
    const future = await api('GET', `/video/v1/delivery-usage?timeframe[]=${now - 60}&timeframe[]=${now + 3600}`);
    expect(future.status).toBe(400);
    expect(future.body.error.messages.join(' ')).toMatch(/timeframe/);
  });
});
