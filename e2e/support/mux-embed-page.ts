import fs from 'node:fs';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import path from 'node:path';
import { Page } from 'playwright-core';

const HLS_JS = path.join(path.dirname(require.resolve('hls.js')), 'hls.min.js');
const MUX_EMBED = path.join(path.dirname(require.resolve('mux-embed')), 'mux.js');

/**
 * A customer's page with hls.js and mux-embed (both from npm), on an origin of its own. The page
 * defines `window.player`: `start(src, beaconDomain, data)` attaches hls.js and `mux.monitor` (beacons
 * to `http://{beaconDomain}`: mux-embed speaks plain http to `localhost:PORT`), then the test drives
 * it step by step with `page.evaluate` (levels, seeks, pause, `end()` for the viewend).
 */
const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>mux-embed e2e</title>
<script src="/hls.js"></script><script src="/mux.js"></script></head>
<body><script>
const once = (target, name) => new Promise((r) => (target.on ? target.once(name, r) : target.addEventListener(name, r, { once: true })));
window.player = {
  errors: [],
  start(src, beaconDomain, data) {
    const video = document.createElement('video');
    video.muted = true;
    video.width = 640;
    video.height = 360;
    document.body.append(video);
    const hls = new Hls({ startLevel: 0, capLevelToPlayerSize: false, abrEwmaDefaultEstimate: 100000 });
    hls.on(Hls.Events.ERROR, (_e, d) => d.fatal && window.player.errors.push(d.details));
    mux.monitor(video, { debug: false, hlsjs: hls, Hls, beaconCollectionDomain: beaconDomain, data: { player_init_time: mux.utils.now(), ...data } });
    this.video = video;
    this.hls = hls;
    this.started = performance.now();
    hls.loadSource(src);
    hls.attachMedia(video);
    return new Promise((resolve) => {
      hls.once(Hls.Events.MANIFEST_PARSED, (_e, d) => resolve(d.levels.map((l) => ({ height: l.height, bitrate: l.bitrate }))));
      hls.on(Hls.Events.ERROR, (_e, d) => d.fatal && resolve([]));
    });
  },
  async play() { await this.video.play(); },
  requestPlay() { this.video.play().catch(() => undefined); },
  level(index) { this.hls.currentLevel = index; },
  async seek(seconds) { this.video.currentTime = seconds; await once(this.video, 'seeked'); },
  pause() { this.video.pause(); },
  state() {
    const v = this.video;
    return { time: v.currentTime, paused: v.paused, ended: v.ended, level: this.hls.currentLevel, height: v.videoHeight, errors: this.errors };
  },
  end() {
    const watched = performance.now() - this.started;
    this.video.mux.destroy();
    this.hls.destroy();
    return watched;
  },
};
</script></body></html>`;

export async function serveMuxEmbedPage(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const files: Record<string, string> = { '/hls.js': HLS_JS, '/mux.js': MUX_EMBED };
    const file = files[req.url ?? ''];
    if (file) {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      fs.createReadStream(file).pipe(res);
      return;
    }
    if (req.url !== '/') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export interface EmbedLevel {
  height: number;
  bitrate: number;
}

export interface EmbedPlayerState {
  time: number;
  paused: boolean;
  ended: boolean;
  level: number;
  height: number;
  errors: string[];
}

interface PagePlayer {
  start(src: string, beaconDomain: string, data: Record<string, string>): Promise<EmbedLevel[]>;
  play(): Promise<void>;
  requestPlay(): void;
  level(index: number): void;
  seek(seconds: number): Promise<void>;
  pause(): void;
  state(): EmbedPlayerState;
  end(): number;
}

/** The page's player, driven from the test (each call one `page.evaluate`). */
export function embedPlayer(tab: Page) {
  return {
    start: (src: string, beaconDomain: string, data: Record<string, string>) =>
      tab.evaluate(([s, d, x]) => (globalThis as unknown as { player: PagePlayer }).player.start(s, d, x), [src, beaconDomain, data] as const),
    play: () => tab.evaluate(() => (globalThis as unknown as { player: PagePlayer }).player.play().catch(() => undefined)),
    /** Asks to play without waiting: a source that never loads leaves `play()` pending. */
    requestPlay: () => tab.evaluate(() => (globalThis as unknown as { player: PagePlayer }).player.requestPlay()),
    level: (index: number) => tab.evaluate((i) => (globalThis as unknown as { player: PagePlayer }).player.level(i), index),
    seek: (seconds: number) => tab.evaluate((s) => (globalThis as unknown as { player: PagePlayer }).player.seek(s), seconds),
    pause: () => tab.evaluate(() => (globalThis as unknown as { player: PagePlayer }).player.pause()),
    state: () => tab.evaluate(() => (globalThis as unknown as { player: PagePlayer }).player.state()),
    end: () => tab.evaluate(() => (globalThis as unknown as { player: PagePlayer }).player.end()),
  };
}
