import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Browser } from 'playwright-core';
import { settledAsset } from './support/assets';
import { sdk } from './support/context';
import { launchChromium } from './support/hls-player';
import { ffprobe, makeClip } from './support/media';
import { serveUpChunkPage, upChunkInBrowser } from './support/upchunk-page';
import { uploadWhen } from './support/uploads';

jest.setTimeout(180_000);

/** The official browser uploader, unchanged, in Debian's Chromium against the upload URL. */
describe('UpChunk in a browser', () => {
  const mux = sdk();
  let dir: string;
  let clip: string;
  let browser: Browser;
  let page: { origin: string; close(): Promise<void> };

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-upchunk-'));
    // ~1.5 MB: six 256 KiB chunks
    clip = await makeClip(dir, 'upchunk', { seconds: 6, width: 960, height: 540, fps: 30 });
    browser = await launchChromium();
    page = await serveUpChunkPage(clip);
  });

  afterAll(async () => {
    await browser?.close();
    await page?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('uploads in chunks (308 each, 200 at the end) from a page of the cors_origin, and the asset is made', async () => {
    const upload = await mux.video.uploads.create({ cors_origin: page.origin, new_asset_settings: { playback_policies: ['public'] } });
    const size = fs.statSync(clip).size;
    const chunks = Math.ceil(size / (256 * 1024));
    expect(chunks).toBeGreaterThanOrEqual(3);

    const result = await upChunkInBrowser(browser, page.origin, path.basename(clip), upload.url!, 256);
    expect(result).toEqual({ outcome: 'success', chunkSuccesses: chunks, progress: [...Array(chunks - 1).fill(308), 200] });

    const done = await uploadWhen(mux, upload.id, (u) => u.status !== 'waiting');
    expect(done.status).toBe('asset_created');
    const asset = await settledAsset(mux, done.asset_id!);
    expect(asset).toMatchObject({ status: 'ready', upload_id: upload.id, ingest_type: 'on_demand_direct_upload' });
    expect(asset.duration).toBeCloseTo(Number((await ffprobe(clip)).format.duration), 0);
    expect(asset.tracks?.find((t) => t.type === 'video')).toMatchObject({ max_width: 960, max_height: 540 });
  });

  it('sends a file smaller than one chunk in a single PUT (200 at once), with cors_origin "*"', async () => {
    const upload = await mux.video.uploads.create({ cors_origin: '*' });
    const result = await upChunkInBrowser(browser, page.origin, path.basename(clip), upload.url!, 8192);
    expect(result).toEqual({ outcome: 'success', chunkSuccesses: 1, progress: [200] });
    expect((await uploadWhen(mux, upload.id, (u) => u.status !== 'waiting')).status).toBe('asset_created');
  });

  it('is blocked by the browser from a page of another origin, and nothing is made', async () => {
    const upload = await mux.video.uploads.create({ cors_origin: 'https://app.example.com' });
    const result = await upChunkInBrowser(browser, page.origin, path.basename(clip), upload.url!, 256);
    expect(result.outcome).toBe('error');
    expect(result.chunkSuccesses).toBe(0);
    expect((await mux.video.uploads.retrieve(upload.id)).status).toBe('waiting');
  });
});
