import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import path from 'node:path';
import { readUntil } from '@platform/testing';
import { Browser, chromium, Page } from 'playwright-core';

const ROOT = path.resolve(__dirname, '../..');

export interface PlayerState {
  supported: boolean;
  levels: Array<{ width: number; height: number; bitrate: number; codecs: [string, string] }>;
  subtitleTracks: Array<{ name: string; lang: string }>;
  audioTracks: Array<{ name: string; lang?: string; default: boolean; alternate: boolean }>;
  /** Ids of the audio tracks hls.js switched to, in order. */
  audioSwitches: number[];
  /** Levels hls.js switched to (its ABR, or a lock), in order. */
  levelSwitches: number[];
  fragments: number;
  /** Paths of the fragments loaded, by hls.js's fragment type. */
  fragmentUrls: { main: string[]; audio: string[]; subtitle: string[] };
  /** LL-HLS parts hls.js loaded (FRAG_LOADED with a part). */
  parts: number;
  /** Playlist reloads hls.js sent with `_HLS_msn` (blocking reloads). */
  blockingReloads: number;
  /** What the last media playlist offered: blocking reload, its part target and parts listed. */
  lowLatency: { canBlockReload: boolean; partTarget: number; parts: number } | null;
  /** hls.js's estimate of how far behind the live edge it plays (seconds), at the last playlist load. */
  latency: number | null;
  /** The distance behind the live edge hls.js aims at (PART-HOLD-BACK for LL-HLS), at the last playlist load. */
  targetLatency: number | null;
  /** Playback stalls hls.js reported (BUFFER_STALLED_ERROR); each raises its target latency by a second. */
  stalls: number;
  /** Those reported before `targetLatency` was read. */
  stallsAtTargetLatency: number;
  errors: string[];
  fatal: string | null;
  currentTime: number;
  videoWidth: number;
  videoHeight: number;
  mediaError: string | null;
  /** With the `barcode` option: the number burnt into each frame presented, in order (a busy machine skips some). */
  presented: number[];
  /** When each of those frames was to be shown (ms since the epoch). */
  presentedAt: number[];
  /** The media time of the frame each of those callbacks was for (seconds). */
  presentedMediaTimes: number[];
  /** Frames the video element decoded so far (`getVideoPlaybackQuality().totalVideoFrames`), shown or dropped. */
  decodedFrames: number | null;
}

/** Debian's Chromium (installed by scripts/infra/chromium.sh), headless, driven over CDP; `extraArgs` added to its flags. */
export async function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  const executablePath = execFileSync('bash', [path.join(ROOT, 'scripts/infra/chromium.sh')], { encoding: 'utf8' }).trim();
  return chromium.launch({
    executablePath,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--autoplay-policy=no-user-gesture-required',
      ...extraArgs,
    ],
  });
}

/**
 * The player page and hls.js from node_modules, on an origin of their own (so the playback host's
 * CORS headers are what lets the browser read playlists and segments, as on a customer's site).
 */
export interface PlayerOptions {
  /** Lock to this level. */
  level?: number;
  /** Show the first subtitle track. */
  subtitles?: boolean;
  /** Show the subtitle track of this name. */
  subtitleName?: string;
  /** Choose this audio track once playing… */
  audio?: number;
  /** …and the default one again once playback reaches this time (seconds). */
  audioBack?: number;
  /** Playback rate. */
  rate?: number;
  /** Read the barcode (libs/testing frame-barcode) of each frame presented. */
  barcode?: { bits: number; block: number };
}

export async function servePlayerPage(): Promise<{ url(src: string, options?: PlayerOptions | number): string; close(): Promise<void> }> {
  const files: Record<string, [string, string]> = {
    '/': [path.join(__dirname, 'player/player.html'), 'text/html; charset=utf-8'],
    '/hls.min.js': [require.resolve('hls.js/dist/hls.min.js'), 'text/javascript'],
  };
  const server = http.createServer((req, res) => {
    const file = files[new URL(req.url ?? '/', 'http://x').pathname];
    if (!file) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': file[1] });
    fs.createReadStream(file[0]).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (src, options = {}) => {
      const { level, subtitles, subtitleName, audio, audioBack, rate, barcode } = typeof options === 'number' ? { level: options } : options;
      const query = new URLSearchParams({
        src,
        ...(level === undefined ? {} : { level: String(level) }),
        ...(subtitles ? { subtitles: '1' } : {}),
        ...(subtitleName ? { subtitleName } : {}),
        ...(audio === undefined ? {} : { audio: String(audio) }),
        ...(audioBack === undefined ? {} : { audioBack: String(audioBack) }),
        ...(rate ? { rate: String(rate) } : {}),
        ...(barcode ? { barcode: `${barcode.bits},${barcode.block}` } : {}),
      });
      return `http://127.0.0.1:${port}/?${query.toString()}`;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A subtitle cue as the player shows it, on the video's timeline. */
export interface PlayerCue {
  start: number;
  end: number;
  text: string;
}

const readState = (page: Page) => () => page.evaluate<PlayerState>('window.state()');
/** Whether the player can still get further: hls.js runs here and nothing has failed. */
const playing = (s: PlayerState) => s.supported && !s.fatal && !s.mediaError;

/** Opens the page on `src` and waits until the video has played `seconds` (or fails, or the time runs out). */
export async function playInBrowser(
  browser: Browser,
  pageUrl: string,
  seconds: number,
  timeoutMs = 60_000,
): Promise<PlayerState & { colours: number; cues: PlayerCue[] }> {
  const page = await browser.newPage();
  try {
    await page.goto(pageUrl);
    const state = await readUntil(readState(page), (s) => !playing(s) || s.currentTime >= seconds, { timeoutMs, intervalMs: 200 });
    const colours = await page.evaluate<number>('window.frameColours()');
    const cues = await page.evaluate<PlayerCue[]>('window.cues()');
    return { ...state, colours, cues };
  } finally {
    await page.close();
  }
}

/**
 * Opens the page on a live `src` and watches it for `seconds` of wall-clock time once it plays:
 * how far playback advanced meanwhile (a player at the live edge keeps up in real time).
 */
export async function watchLiveInBrowser(
  browser: Browser,
  pageUrl: string,
  seconds: number,
  timeoutMs = 60_000,
): Promise<PlayerState & { advanced: number; colours: number }> {
  const page = await browser.newPage();
  try {
    await page.goto(pageUrl);
    const started = (await readUntil(readState(page), (s) => !playing(s) || s.currentTime > 0, { timeoutMs, intervalMs: 200 })).currentTime;
    await new Promise((r) => setTimeout(r, seconds * 1000));
    const state = await readState(page)();
    const colours = await page.evaluate<number>('window.frameColours()');
    return { ...state, advanced: state.currentTime - started, colours };
  } finally {
    await page.close();
  }
}
