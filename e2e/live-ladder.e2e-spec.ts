import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import Mux from '@mux/mux-node';
import { Browser } from 'playwright-core';
import { playlistUris, resolveUri } from './support/assets';
import { platform } from './support/context';
import { Encoder, eventually, pushRtmp } from './support/encoder';
import { launchChromium, PlayerState, servePlayerPage } from './support/hls-player';
import { FFPROBE } from './support/media';
import { RunningPlatform, startPlatform } from './support/platform-process';

jest.setTimeout(300_000);

const run = promisify(execFile);

/** Size, codec and first video frame (time, key frame) of a segment fetched over HTTP. */
async function firstFrame(url: string): Promise<{ width: number; height: number; codec: string; start: number; key: boolean }> {
  const { stdout } = await run(FFPROBE, [
    '-v',
    'error',
    '-select_streams',
    'v',
    '-show_streams',
    '-show_frames',
    '-read_intervals',
    '%+#1',
    '-of',
    'json',
    url,
  ]);
  const probe = JSON.parse(stdout) as {
    streams: Array<{ width: number; height: number; codec_name: string }>;
    frames: Array<{ pts_time?: string; pkt_pts_time?: string; key_frame: number }>;
  };
  const frame = probe.frames[0];
  return {
    width: probe.streams[0].width,
    height: probe.streams[0].height,
    codec: probe.streams[0].codec_name,
    start: Number(frame.pts_time ?? frame.pkt_pts_time),
    key: frame.key_frame === 1,
  };
}

const RESOLUTIONS = ['1280x720', '960x540', '640x360', '480x270'];
const resolutions = (master: string) => [...master.matchAll(/RESOLUTION=(\d+x\d+)/g)].map((m) => m[1]);

/**
 * The adaptive live ladder (issue 17, LIVE_LADDER=full) on a platform of its own: a 720p encoder's
 * own rendition stream-copied on top, 540p, 360p and 270p transcoded from one decode and cut at the
 * same key frames; hls.js steps down when the network slows; the recording is adaptive too.
 * Once, in the embedded run (the ladder is the same code in both modes; it costs CPU the other lane needs).
 */
(platform.mode === 'embedded' ? describe : describe.skip)('Live ladder (LIVE_LADDER=full)', () => {
  let own: RunningPlatform;
  let mux: Mux;
  let encoder: Encoder | undefined;
  let browser: Browser | undefined;
  let page: Awaited<ReturnType<typeof servePlayerPage>> | undefined;

  beforeAll(async () => {
    own = await startPlatform('embedded', { LIVE_LADDER: 'full' });
    mux = new Mux({ tokenId: own.tokenId, tokenSecret: own.tokenSecret, baseURL: own.baseUrl, maxRetries: 0 });
  });

  afterAll(async () => {
    await encoder?.stop();
    await browser?.close();
    await page?.close();
    await own?.stop();
  });

  it('publishes every rung, aligned; hls.js steps down on a slow network; the recording keeps the ladder', async () => {
    const stream = await mux.video.liveStreams.create({
      playback_policies: ['public'],
      latency_mode: 'reduced',
      reconnect_window: 0,
      new_asset_settings: { playback_policies: ['public'] },
    });
    const playbackId = stream.playback_ids![0].id;
    encoder = pushRtmp(stream.stream_key, { port: own.env.RTMP_PORT, size: '1280x720' });
    const masterUrl = `${own.streamUrl}/${playbackId}.m3u8`;

    // the live master: the encoder's 720p on top, then the VOD ladder's rungs below it
    const master = await eventually(
      async () => {
        const res = await fetch(masterUrl);
        return res.status === 200 ? res.text() : '';
      },
      (text) => resolutions(text).length === 4,
      60_000,
    );
    expect(resolutions(master)).toEqual(RESOLUTIONS);
    const variants = playlistUris(master).map((uri) => resolveUri(masterUrl, uri));

    // a segment every rung lists: the same instants, each starting on a key frame, at its rung's size
    const lists = await eventually(
      () => Promise.all(variants.map(async (url) => playlistUris(await (await fetch(url)).text()).map((uri) => resolveUri(url, uri)))),
      (all) => all.every((segments) => segments.length >= 3),
      60_000,
    );
    const name = (url: string) => url.split('/').pop()!;
    const shared = lists[0].map(name).filter((n) => lists.every((segments) => segments.some((u) => name(u) === n)));
    expect(shared.length).toBeGreaterThanOrEqual(2);
    for (const segment of shared.slice(-2)) {
      const frames = await Promise.all(lists.map((segments) => firstFrame(segments.find((u) => name(u) === segment)!)));
      expect(frames.map((f) => `${f.width}x${f.height}`)).toEqual(RESOLUTIONS);
      expect(frames.map((f) => [f.codec, f.key])).toEqual(frames.map(() => ['h264', true]));
      for (const f of frames) expect(Math.abs(f.start - frames[0].start)).toBeLessThan(0.034);
    }

    // hls.js at the live edge, then the network slowed to 500 kb/s: its ABR steps down to a lower rung
    [browser, page] = await Promise.all([launchChromium(), servePlayerPage()]);
    const context = await browser.newContext();
    const tab = await context.newPage();
    await tab.goto(page.url(masterUrl));
    const state = () => tab.evaluate<PlayerState>('window.state()');
    const playing = await eventually(state, (s) => s.currentTime > 2 || s.fatal !== null, 60_000);
    expect(playing.fatal).toBeNull();
    expect(playing.levels.map((l) => `${l.width}x${l.height}`).sort()).toEqual([...RESOLUTIONS].sort());
    const cdp = await context.newCDPSession(tab);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 50, downloadThroughput: 62_500, uploadThroughput: 1_000_000 });
    const stepped = await eventually(state, (s) => s.fatal !== null || (s.videoHeight > 0 && s.videoHeight <= 360), 90_000);
    expect(stepped.fatal).toBeNull();
    expect(stepped.videoHeight).toBeLessThanOrEqual(360);
    expect(stepped.levelSwitches.length).toBeGreaterThanOrEqual(1);
    await context.close();

    // the recording: ready, adaptive (the same four rungs), played from the start
    await encoder.stop();
    const idle = await eventually(
      () => mux.video.liveStreams.retrieve(stream.id),
      (s) => s.status === 'idle',
      60_000,
    );
    const asset = await eventually(
      () => mux.video.assets.retrieve(idle.recent_asset_ids![0]),
      (a) => a.status !== 'preparing',
      60_000,
    );
    expect(asset.status).toBe('ready');
    const recorded = await (await fetch(`${own.streamUrl}/${asset.playback_ids![0].id}.m3u8`)).text();
    expect(resolutions(recorded)).toEqual(RESOLUTIONS);
  });
});
