import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Browser, Page } from 'playwright-core';
import { imageUrl, settledAsset, streamUrl } from './support/assets';
import { sdk } from './support/context';
import { eventually } from './support/encoder';
import { launchChromium } from './support/hls-player';
import { FileServer, makeClip, serveFiles } from './support/media';
import {
  decodeImage,
  MuxPlayerAttributes,
  MuxPlayerState,
  playerStateWhen,
  RecordedRequest,
  recordTraffic,
  serveMuxPlayerPage,
} from './support/mux-player-page';
import { FRONT_DOOR_CHROMIUM_ARGS, startTlsFrontDoor, TlsFrontDoor } from './support/tls-front-door';

jest.setTimeout(150_000);

const SECONDS = 8;
/** The asset's WebVTT text track. */
const CUES = [
  { start: 0.5, end: 3.5, text: 'Mux Player shows this first caption' },
  { start: 4.5, end: 8, text: 'and then this second one' },
];
const vttTime = (s: number) => `00:00:${s.toFixed(3).padStart(6, '0')}`;
const VTT = `WEBVTT\n\n${CUES.map((c) => `${vttTime(c.start)} --> ${vttTime(c.end)}\n${c.text}\n`).join('\n')}`;

const origin = (url: string) => new URL(url).origin;
/** Consecutive duplicates dropped. */
const squeeze = (values: string[]) => values.filter((v, i) => v !== values[i - 1]);
const thumbnails = (s: MuxPlayerState) => s.textTracks.find((t) => t.kind === 'metadata' && t.label === 'thumbnails');
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A request's outcome: its status and media type (`200 image/webp`), or its network error. */
const answer = (r: RecordedRequest) => (r.status === undefined ? (r.failure ?? 'no answer') : `${r.status} ${(r.contentType ?? '').split(';')[0].trim()}`);

/**
 * The official Mux Player (`@mux/mux-player` from npm, its browser bundle) on a customer's page in Chromium, pointed at
 * the platform's hosts instead of Mux's: a public asset by `src`/`poster`/`storyboard-src` URLs, a signed asset by
 * playback id, tokens from the SDK and `custom-domain` through a TLS front door (the ingress of a real deployment).
 * The player must play the asset to its end, list the ladder in its quality menu, show the asset's captions, load
 * the poster and storyboard from the image host, and ask nothing of any other host (no mux.com, litix.io or CDN).
 */
describe('Mux Player (@mux/mux-player) in Chromium', () => {
  const mux = sdk();
  let dir: string;
  let files: FileServer;
  let pages: Awaited<ReturnType<typeof serveMuxPlayerPage>>;
  let frontDoor: TlsFrontDoor;
  let browser: Browser;
  let key: { id: string; secret: string };
  const assets: Record<'public' | 'signed', { assetId: string; playbackId: string; heights: number[] }> = {} as never;

  /** Heights of the master's variants once the ladder has replaced the quick source rendition and the text track is in it. */
  async function readyMaster(assetId: string, masterUrl: string): Promise<number[]> {
    const tracks = await eventually(
      async () => (await mux.video.assets.retrieve(assetId)).tracks ?? [],
      (list) => list.some((t) => t.type === 'text' && t.status !== 'preparing'),
      60_000,
    );
    expect(tracks.filter((t) => t.type === 'text').map((t) => [t.name, t.language_code, t.text_type, t.status])).toEqual([
      ['English', 'en', 'subtitles', 'ready'],
    ]);
    const master = await eventually(
      async () => (await fetch(masterUrl)).text(),
      (text) => (text.match(/RESOLUTION=/g) ?? []).length > 1 && text.includes('TYPE=SUBTITLES'),
      60_000,
    );
    expect(master).toContain('TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",LANGUAGE="en"');
    return [...master.matchAll(/RESOLUTION=\d+x(\d+)/g)].map((m) => Number(m[1]));
  }

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-mux-player-'));
    // 960x540: a ladder of three renditions (540p, 360p, 270p), quick to encode beside the other e2e files
    await makeClip(dir, 'clip', { seconds: SECONDS, width: 960, height: 540, fps: 30 });
    fs.writeFileSync(path.join(dir, 'en.vtt'), VTT);
    files = await serveFiles(dir);
    const inputs = [
      { url: files.url('clip.mp4') },
      { url: files.url('en.vtt'), type: 'text' as const, text_type: 'subtitles' as const, language_code: 'en', name: 'English' },
    ];
    const [publicAsset, signedAsset, signingKey] = await Promise.all([
      mux.video.assets.create({ inputs, playback_policies: ['public'] }),
      mux.video.assets.create({ inputs, playback_policies: ['signed'] }),
      mux.system.signingKeys.create(),
    ]);
    key = { id: signingKey.id, secret: signingKey.private_key! };
    [pages, frontDoor, browser] = await Promise.all([
      serveMuxPlayerPage(),
      startTlsFrontDoor({ stream: streamUrl(''), image: imageUrl('') }),
      launchChromium(FRONT_DOOR_CHROMIUM_ARGS),
    ]);
    const settled = await Promise.all([settledAsset(mux, publicAsset.id), settledAsset(mux, signedAsset.id)]);
    expect(settled.map((a) => a.status)).toEqual(['ready', 'ready']);
    const publicId = publicAsset.playback_ids![0].id;
    const signedId = signedAsset.playback_ids![0].id;
    const videoToken = await mux.jwt.signPlaybackId(signedId, { type: 'video', keyId: key.id, keySecret: key.secret, expiration: '1h' });
    const [publicHeights, signedHeights] = await Promise.all([
      readyMaster(publicAsset.id, streamUrl(`${publicId}.m3u8`)),
      readyMaster(signedAsset.id, streamUrl(`${signedId}.m3u8?token=${videoToken}`)),
    ]);
    assets.public = { assetId: publicAsset.id, playbackId: publicId, heights: publicHeights };
    assets.signed = { assetId: signedAsset.id, playbackId: signedId, heights: signedHeights };
  });

  afterAll(async () => {
    // deleting ends what the platform would still do for them, which would slow the next files
    await Promise.all(Object.values(assets).map((a) => mux.video.assets.delete(a.assetId)));
    await browser?.close();
    await frontDoor?.close();
    await pages?.close();
    await files?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  interface Expected {
    playbackId: string;
    /** The ladder's heights, as the master lists them. */
    heights: number[];
    /** The URLs the player must ask for. */
    masterUrl: string;
    posterUrl: string;
    storyboardUrl: string;
    /** Where the requests may go. */
    origins: string[];
    /** The storyboard token the storyboard's tile URLs carry (signed playback ids). */
    storyboardToken?: string;
  }

  /**
   * Opens the page and drives the player as a viewer would: it autoplays muted, then (paused) the quality menu and
   * the captions are read and turned on with the captions button; then it plays from the start at 2x to the end, the
   * subtitle cues watched; then the mouse hovers the time range (the storyboard preview). Each step is checked as it
   * goes, then every request. The poster and the storyboard (what needs the image host) are checked last and their
   * failures returned, all of them, for `expectImages` to report once the test's own checks have run.
   */
  async function watch(page: Page, attributes: MuxPlayerAttributes, expected: Expected): Promise<{ imageFailures: string[] }> {
    const traffic = recordTraffic(page);
    await page.goto(pages.url(attributes));

    // muted autoplay
    let state = await playerStateWhen(page, (s) => s.error !== null || (!s.paused && s.currentTime > 0.2));
    expect({ error: state.error, paused: state.paused }).toEqual({ error: null, paused: false });
    expect(state.currentTime).toBeGreaterThan(0.2);
    await page.evaluate("document.querySelector('mux-player').pause()");

    // the quality menu lists the ladder: media.videoRenditions (hls.js's levels, lowest first) and the menu's items (highest first, then Auto)
    const heightsDown = [...expected.heights].sort((a, b) => b - a);
    state = await playerStateWhen(page, (s) => s.renditionMenu.length > expected.heights.length);
    expect(state.renditions.map((r) => r.height)).toEqual([...heightsDown].reverse());
    const auto = state.renditionMenu[heightsDown.length];
    expect(state.renditionMenu.map((item) => item.label)).toEqual([...heightsDown.map((h) => `${h}p`), auto?.label]);
    // "Auto (<height of the rendition playing>p)"
    expect(auto?.value).toBe('auto');
    expect(heightsDown.map((h) => `Auto (${h}p)`)).toContain(auto?.label);

    // captions: hidden at first (default-hidden-captions), turned on with the captions button and its menu
    const english = (s: MuxPlayerState) => s.textTracks.find((t) => t.kind === 'subtitles' && t.label === 'English');
    expect(english(state)).toMatchObject({ language: 'en', mode: 'disabled' });
    expect(state.captionsMenu.map((item) => item.value)).toEqual(['off', 'sb:en:English']);
    await page.locator('mux-player').hover();
    await page.locator('mux-player media-captions-menu-button').click();
    await page.locator('mux-player media-captions-menu media-chrome-menu-item[value="sb:en:English"]').click();
    state = await playerStateWhen(page, (s) => english(s)?.mode === 'showing' && english(s)!.cues.length >= CUES.length);
    expect(english(state)?.mode).toBe('showing');
    const cues = english(state)!.cues;
    expect(cues.map((c) => c.text)).toEqual(CUES.map((c) => c.text));
    // on the media timeline by their MPEG-TS times: the file's times, shifted as the video's first frame is (its
    // B-frame delay, under a frame or two; as in hls.js alone, e2e/asset-tracks.e2e-spec.ts)
    const shift = cues[0].start - CUES[0].start;
    expect(shift).toBeGreaterThanOrEqual(0);
    expect(shift).toBeLessThan(0.15);
    expect(cues.map((c) => [c.start - shift, c.end - shift].map((t) => Math.round(t * 1000) / 1000))).toEqual(CUES.map((c) => [c.start, c.end]));

    // from the start at 2x to the end, the cues showing in turn
    await page.evaluate(`(() => {
      const player = document.querySelector('mux-player');
      window.playerLog.cues.length = 0;
      player.currentTime = 0;
      player.playbackRate = 2;
      return player.play();
    })()`);
    state = await playerStateWhen(page, (s) => s.error !== null || s.log.events.some((e) => e.type === 'ended'), 40_000);
    expect(state.log.events.map((e) => e.type)).toContain('ended');
    expect({ ended: state.ended, error: state.error, playbackRate: state.playbackRate }).toEqual({ ended: true, error: null, playbackRate: 2 });
    expect(state.duration).toBeCloseTo(SECONDS, 0);
    expect(state.currentTime).toBeGreaterThan(SECONDS - 0.5);
    expect(squeeze(state.log.cues.map((c) => c.text))).toEqual(CUES.map((c) => c.text));
    for (const seen of state.log.cues) {
      const cue = cues.find((c) => c.text === seen.text)!;
      expect(seen.time).toBeGreaterThanOrEqual(cue.start - 0.3);
      expect(seen.time).toBeLessThanOrEqual(cue.end + 0.3);
    }

    // the storyboard preview: once the thumbnails track has its cues (or its VTT was refused), the mouse over the
    // middle of the time range, and the tile under it shown (checked below)
    const vttRefused = () => {
      const vtt = traffic.requests.filter((r) => r.url === expected.storyboardUrl).map(answer);
      return vtt.length > 0 && !vtt.some((a) => a === '200 text/vtt' || a === 'no answer');
    };
    state = await playerStateWhen(page, (s) => (thumbnails(s)?.cues.length ?? 0) > 0 || vttRefused(), 10_000);
    const range = await page.locator('mux-player media-time-range').boundingBox();
    expect(range).not.toBeNull();
    await page.mouse.move(range!.x + range!.width / 2, range!.y + range!.height / 2, { steps: 5 });
    if ((thumbnails(state)?.cues.length ?? 0) > 0) state = await playerStateWhen(page, (s) => Boolean(s.preview?.complete && s.preview.src), 5_000);

    // every request went to the page's own origin or the platform's hosts (directly or through the front door)
    expect(traffic.requests.length).toBeGreaterThan(0);
    expect(traffic.requests.filter((r) => !expected.origins.includes(origin(r.url))).map((r) => r.url)).toEqual([]);
    const master = traffic.requests.filter((r) => r.url === expected.masterUrl);
    expect(master.map((r) => r.status)).toEqual([200]);
    const playback = traffic.requests.filter((r) => origin(r.url) === origin(expected.masterUrl));
    // each answered 200 (hls.js may abort a request it no longer needs: that is no answer of the platform's)
    expect(playback.filter((r) => r.status !== 200 && r.failure !== 'net::ERR_ABORTED').map((r) => `${r.url}: ${r.status ?? r.failure}`)).toEqual([]);
    expect(playback.some((r) => r.url.includes('/text-') && r.url.includes('.vtt'))).toBe(true); // the subtitle segments
    expect(playback.filter((r) => /\.ts(\?|$)/.test(r.url)).length).toBeGreaterThanOrEqual(2);

    // What needs the image host, each group checked even when another fails, so that one run reports them all.
    const failures: string[] = [];
    const check = (what: string, assertions: () => void) => {
      try {
        assertions();
      } catch (err) {
        failures.push(`${what}: ${(err as Error).message}`);
      }
    };
    const answers = (url: string) => traffic.requests.filter((r) => r.url === url).map(answer);
    // the sprite of the tile shown, decoded again by the page to name what went wrong if the <img> shows nothing
    const sprite = state.preview?.src ? await decodeImage(page, state.preview.src) : null;

    check('the poster (thumbnail) loads from the image host into <media-poster-image>', () => {
      const requests = answers(expected.posterUrl);
      expect(requests.length).toBeGreaterThan(0);
      expect(requests.filter((a) => a !== '200 image/webp')).toEqual([]);
      expect(state.poster).toMatchObject({ src: expected.posterUrl, complete: true });
      expect(state.poster!.naturalWidth).toBeGreaterThan(0);
      expect(state.poster!.naturalWidth / state.poster!.naturalHeight).toBeCloseTo(16 / 9, 1);
    });

    check('the storyboard VTT loads as the metadata track `thumbnails`, each cue a tile of a sprite on the image host', () => {
      expect(answers(expected.storyboardUrl)).toContain('200 text/vtt');
      const track = thumbnails(state);
      expect(track).toMatchObject({ kind: 'metadata', src: expected.storyboardUrl });
      const tiles = track!.cues.map((c) => c.text);
      expect(tiles.length).toBeGreaterThan(0);
      const token = expected.storyboardToken ? `\\?token=${escapeRegExp(expected.storyboardToken)}` : '';
      const tile = new RegExp(`^${escapeRegExp(origin(expected.storyboardUrl))}/${expected.playbackId}/storyboard\\.webp${token}#xywh=\\d+,\\d+,\\d+,\\d+$`);
      expect(tiles.filter((t) => !tile.test(t))).toEqual([]);
      expect(track!.cues[track!.cues.length - 1].end).toBeCloseTo(SECONDS, 0);
      // the tile under the mouse: shown from the sprite URL its cue gave, which the image host answered with an
      // image the browser decodes, big enough to hold every tile
      expect(state.preview?.complete).toBe(true);
      expect(tiles.map((t) => t.split('#')[0])).toContain(state.preview!.src);
      expect(answers(state.preview!.src)).toContain('200 image/webp');
      expect(sprite).toEqual({ width: expect.any(Number), height: expect.any(Number) });
      const size = sprite as { width: number; height: number };
      const extent = tiles.map((t) => /#xywh=(\d+),(\d+),(\d+),(\d+)$/.exec(t)!.slice(1).map(Number)).map(([x, y, w, h]) => [x + w, y + h]);
      expect(size.width).toBeGreaterThanOrEqual(Math.max(...extent.map(([right]) => right)));
      expect(size.height).toBeGreaterThanOrEqual(Math.max(...extent.map(([, bottom]) => bottom)));
      expect([state.preview!.naturalWidth, state.preview!.naturalHeight]).toEqual([size.width, size.height]);
    });

    check('no console error says a resource failed', () => {
      expect(traffic.consoleErrors.filter((e) => /failed to load resource|net::ERR_|uncaught/i.test(e))).toEqual([]);
    });
    return { imageFailures: failures };
  }

  /** Fails with every failed check of the poster and the storyboard at once. */
  function expectImages({ imageFailures }: { imageFailures: string[] }): void {
    if (imageFailures.length > 0) throw new Error(imageFailures.join('\n\n'));
  }

  it('plays a public asset from the stream host by src, poster and storyboard from the image host', async () => {
    const { playbackId, heights } = assets.public;
    const masterUrl = streamUrl(`${playbackId}.m3u8`);
    const posterUrl = imageUrl(`${playbackId}/thumbnail.webp`);
    const storyboardUrl = imageUrl(`${playbackId}/storyboard.vtt?format=webp`);
    const page = await browser.newPage();
    let watched: Awaited<ReturnType<typeof watch>>;
    try {
      watched = await watch(
        page,
        {
          src: masterUrl,
          poster: posterUrl,
          'storyboard-src': storyboardUrl,
          'stream-type': 'on-demand',
          // Mux Data's analytics beacons would go to litix.io; the platform's own beacon collector is a later issue.
          'disable-tracking': true,
          'default-hidden-captions': true,
          muted: true,
          autoplay: true,
        },
        { playbackId, heights, masterUrl, posterUrl, storyboardUrl, origins: [pages.origin, origin(streamUrl('')), origin(imageUrl(''))] },
      );
    } finally {
      await page.close();
    }
    expectImages(watched);
  });

  it('plays a signed asset by playback id, tokens from the SDK and custom-domain, through a TLS front door', async () => {
    const { playbackId, heights } = assets.signed;
    const sign = (type: 'video' | 'thumbnail' | 'storyboard') =>
      mux.jwt.signPlaybackId(playbackId, { type, keyId: key.id, keySecret: key.secret, expiration: '1h' });
    const [playbackToken, thumbnailToken, storyboardToken] = await Promise.all([sign('video'), sign('thumbnail'), sign('storyboard')]);
    // what Mux Player 3.14 builds from playback-id, the tokens and custom-domain (toMuxVideoURL, getPosterURLFromPlaybackId, getStoryboardURLFromPlaybackId)
    const masterUrl = `${frontDoor.streamOrigin}/${playbackId}.m3u8?token=${playbackToken}`;
    const posterUrl = `${frontDoor.imageOrigin}/${playbackId}/thumbnail.webp?token=${thumbnailToken}`;
    const storyboardUrl = `${frontDoor.imageOrigin}/${playbackId}/storyboard.vtt?token=${storyboardToken}&format=webp`;
    const page = await browser.newPage();
    let watched: Awaited<ReturnType<typeof watch>>;
    try {
      watched = await watch(
        page,
        {
          'playback-id': playbackId,
          'playback-token': playbackToken,
          'thumbnail-token': thumbnailToken,
          'storyboard-token': storyboardToken,
          'custom-domain': frontDoor.domain,
          'stream-type': 'on-demand',
          // Mux Data's analytics beacons would go to litix.io; the platform's own beacon collector is a later issue.
          'disable-tracking': true,
          'default-hidden-captions': true,
          muted: true,
          autoplay: true,
        },
        { playbackId, heights, masterUrl, posterUrl, storyboardUrl, storyboardToken, origins: [pages.origin, frontDoor.streamOrigin, frontDoor.imageOrigin] },
      );
    } finally {
      await page.close();
    }
    // the front door passed the master request on with its token, and the platform answered it
    expect(frontDoor.requests.filter((r) => r.url === `/${playbackId}.m3u8?token=${playbackToken}`).map((r) => [r.host, r.status])).toEqual([
      [`stream.${frontDoor.domain}`, 200],
    ]);
    expectImages(watched);
  });
});
