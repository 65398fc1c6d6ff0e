import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readUntil } from '@platform/testing';
import { Browser } from 'playwright-core';
import { settledAsset, streamUrl } from './support/assets';
import { sdk } from './support/context';
import { eventually, pushRtmp } from './support/encoder';
import { launchChromium, playInBrowser, servePlayerPage, watchLiveInBrowser } from './support/hls-player';
import { FileServer, makeClip, serveFiles } from './support/media';

jest.setTimeout(240_000);

/** Heights the master playlist lists, once the ladder has replaced the quick source rendition. */
function ladderHeights(playbackId: string, query = ''): Promise<number[]> {
  const heights = async () => {
    const text = await (await fetch(streamUrl(`${playbackId}.m3u8${query}`))).text();
    return [...text.matchAll(/RESOLUTION=\d+x(\d+)/g)].map((m) => Number(m[1]));
  };
  return readUntil(heights, (listed) => listed.length > 1, { timeoutMs: 120_000, intervalMs: 500 });
}

/** A real browser player: hls.js in Chromium, on another origin, as a customer's page would play it (spec 4.2). */
describe('playback in hls.js (Chromium)', () => {
  const mux = sdk();
  let dir: string;
  let files: FileServer;
  let player: Awaited<ReturnType<typeof servePlayerPage>>;
  let browser: Browser;
  let publicId: string;
  let signedId: string;
  let heights: number[];

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-player-'));
    await makeClip(dir, 'clip', { seconds: 8, width: 1280, height: 720, fps: 30 });
    files = await serveFiles(dir);
    player = await servePlayerPage();
    browser = await launchChromium();
    const asset = await mux.video.assets.create({ inputs: [{ url: files.url('clip.mp4') }], playback_policies: ['public', 'signed'] });
    publicId = asset.playback_ids!.find((p) => p.policy === 'public')!.id;
    signedId = asset.playback_ids!.find((p) => p.policy === 'signed')!.id;
    expect((await settledAsset(mux, asset.id)).status).toBe('ready');
    heights = await ladderHeights(publicId);
  });

  afterAll(async () => {
    await browser?.close();
    await player?.close();
    await files?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('plays the public master with adaptive levels, decoding real frames', async () => {
    expect(heights.length).toBeGreaterThan(1);
    const state = await playInBrowser(browser, player.url(streamUrl(`${publicId}.m3u8`)), 3);
    expect(state.supported).toBe(true);
    expect(state.fatal).toBeNull();
    expect(state.mediaError).toBeNull();
    expect(state.currentTime).toBeGreaterThanOrEqual(3);
    // hls.js orders levels by bit rate, lowest first; the master lists the highest first.
    expect(state.levels.map((l) => l.height)).toEqual([...heights].sort((a, b) => a - b));
    for (const level of state.levels) {
      expect(level.bitrate).toBeGreaterThan(0);
      expect(level.codecs[0]).toMatch(/^avc1\./);
      expect(level.codecs[1]).toMatch(/^mp4a\.40\./);
    }
    expect(state.fragments).toBeGreaterThanOrEqual(1);
    expect(state.videoWidth).toBeGreaterThan(0);
    expect(state.colours).toBeGreaterThan(20); // testsrc2 is colourful; a black or missing frame is 1
  });

  it('decodes every rendition of the ladder at its own size', async () => {
    for (let level = 0; level < heights.length; level++) {
      const state = await playInBrowser(browser, player.url(streamUrl(`${publicId}.m3u8`), level), 1);
      expect({ level, fatal: state.fatal, height: state.videoHeight }).toEqual({ level, fatal: null, height: state.levels[level].height });
      expect(state.currentTime).toBeGreaterThanOrEqual(1);
    }
  });

  it('plays a signed playback id with a token from the SDK, the children through their grants', async () => {
    const key = await mux.system.signingKeys.create();
    const token = await mux.jwt.signPlaybackId(signedId, { keyId: key.id, keySecret: key.private_key!, expiration: '1h', type: 'video' });
    const state = await playInBrowser(browser, player.url(streamUrl(`${signedId}.m3u8?token=${token}`)), 2);
    expect(state.fatal).toBeNull();
    expect(state.currentTime).toBeGreaterThanOrEqual(2);
    expect(state.colours).toBeGreaterThan(20);
  });

  it('plays a live stream from its live edge in real time, and its recording under way from the start (DVR)', async () => {
    const stream = await mux.video.liveStreams.create({
      playback_policies: ['public'],
      new_asset_settings: { playback_policies: ['public'] },
      latency_mode: 'low',
      reconnect_window: 0,
    });
    const encoder = pushRtmp(stream.stream_key);
    try {
      const active = await eventually(
        () => mux.video.liveStreams.retrieve(stream.id),
        (s) => s.active_asset_id !== undefined,
        30_000,
      );
      const liveUrl = streamUrl(`${stream.playback_ids![0].id}.m3u8`);
      await eventually(
        async () => (await fetch(liveUrl)).status,
        (status) => status === 200,
        30_000,
      );
      await new Promise((r) => setTimeout(r, 4000)); // a few segments in
      const live = await watchLiveInBrowser(browser, player.url(liveUrl), 5);
      expect(live.fatal).toBeNull();
      expect(live.mediaError).toBeNull();
      expect(live.advanced).toBeGreaterThanOrEqual(3.5); // keeps up with real time
      expect(live.colours).toBeGreaterThan(20);

      // the recording's own playback id plays the whole recording so far, from 0
      const asset = await mux.video.assets.retrieve(active.active_asset_id!);
      expect(asset).toMatchObject({ status: 'preparing', is_live: true });
      const dvr = await playInBrowser(browser, player.url(streamUrl(`${asset.playback_ids![0].id}.m3u8`)), 2);
      expect(dvr.fatal).toBeNull();
      expect(dvr.currentTime).toBeGreaterThanOrEqual(2);
      expect(dvr.colours).toBeGreaterThan(20);
    } finally {
      await encoder.stop();
    }
  });

  it('fails the signed playback id without a token: the player reads the 403', async () => {
    const state = await playInBrowser(browser, player.url(streamUrl(`${signedId}.m3u8`)), 1, 20_000);
    expect(state.fatal).toBe('networkError/manifestLoadError (HTTP 403)');
    expect(state.currentTime).toBe(0);
  });
});
