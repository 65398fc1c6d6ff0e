import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { OutboundGuard } from '@platform/outbound';
import { parseMasterPlaylist } from '@platform/media';
import { assetKeys, FsObjectStore } from '@platform/storage';
import { parseMediaPlaylist } from './hls-packager';
import { LiveRecording, RecordingTools } from './live-recording';

jest.setTimeout(120_000);

const FFMPEG = process.env.FFMPEG_PATH ?? 'ffmpeg';
const FFPROBE = process.env.FFPROBE_PATH ?? 'ffprobe';

interface SegmentProbe {
  width: number;
  height: number;
  codec: string;
  /** Presentation time of the first video frame, and whether it is a key frame. */
  start: number;
  key: boolean;
}

function probeSegment(file: string): SegmentProbe {
  const out = execFileSync(FFPROBE, ['-v', 'error', '-select_streams', 'v', '-show_streams', '-show_frames', '-read_intervals', '%+#1', '-of', 'json', file], {
    encoding: 'utf8',
  });
  const { streams, frames } = JSON.parse(out) as {
    streams: Array<{ width: number; height: number; codec_name: string }>;
    frames: Array<{ pts_time?: string; pkt_pts_time?: string; key_frame: number }>;
  };
  const first = frames[0];
  return {
    width: streams[0].width,
    height: streams[0].height,
    codec: streams[0].codec_name,
    start: Number(first.pts_time ?? first.pkt_pts_time),
    key: first.key_frame === 1,
  };
}

/**
 * The adaptive live ladder (LIVE_LADDER=full, issue 17) on real ffmpeg: one decode feeding every rung,
 * the encoder's H.264 copied on top, lower rungs by the VOD ladder's rules, every rung cut at the
 * same key frames; an HEVC encoder transcoded instead of refused; slate in every rung.
 */
describe('LiveRecording with the full ladder (ffmpeg, filesystem store)', () => {
  let dir: string;
  let store: FsObjectStore;
  let tools: RecordingTools;
  const warnings: string[] = [];
  const source = (name: string, codec: string[], seconds = 6, size = '960x540') => {
    const file = path.join(dir, name);
    execFileSync(FFMPEG, [
      ...['-v', 'error', '-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=30`, '-f', 'lavfi', '-i', 'sine=sample_rate=48000', '-t', String(seconds)],
      ...codec,
      ...['-c:a', 'aac', '-f', 'mpegts', file],
    ]);
    return file;
  };
  const stored = async (assetId: string, key: string) => (await store.getBuffer(assetKeys.hls(assetId, key))).toString('utf8');
  const local = async (assetId: string, folder: string, name: string) => {
    const file = path.join(dir, `${assetId}-${folder}-${name}`);
    await store.getFile(assetKeys.hls(assetId, `${folder}/${name}`), file);
    return file;
  };

  /** A session of the whole file: waits for its last rung's segments before the encoder "leaves". */
  async function recordFile(recording: LiveRecording, assetId: string, file: string, prefix: string, count: number): Promise<void> {
    const session = await recording.startSession(file);
    const deadline = Date.now() + 60_000;
    while ((await store.list(assetKeys.hls(assetId, `live-270p/${prefix}`))).length < count && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 200));
    await recording.endSession(session);
  }

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'live-ladder-'));
    store = new FsObjectStore(path.join(dir, 'objects'));
    tools = { ffmpegPath: FFMPEG, ffprobePath: FFPROBE, speechPython: 'python3', store, guard: new OutboundGuard('loopback'), warn: (m) => warnings.push(m) };
  });

  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('a 540p H.264 encoder: masters list 540p (copied), 360p and 270p; each rung has the same segments, key frames aligned', async () => {
    const file = source('h264.ts', ['-c:v', 'libx264', '-preset', 'ultrafast', '-g', '30', '-pix_fmt', 'yuv420p']);
    const recording = new LiveRecording('laddered', 'reduced', path.join(dir, 'work-1'), tools, { ladder: 'full' });
    await recordFile(recording, 'laddered', file, 's1_', 3);
    const summary = await recording.close();
    expect(summary).toMatchObject({ duration: 6, video: { width: 960, height: 540 }, audio: { channels: 1 } });

    const master = parseMasterPlaylist(await stored('laddered', 'master.m3u8'));
    expect(master.map((v) => [v.name, v.width, v.height])).toEqual([
      ['live', 960, 540],
      ['live-360p', 640, 360],
      ['live-270p', 480, 270],
    ]);
    expect(master[0].bandwidth).toBeGreaterThan(master[1].bandwidth);
    expect(parseMasterPlaylist(await stored('laddered', 'live-edge.m3u8')).map((v) => v.name)).toEqual(['window', 'window-360p', 'window-270p']);

    const top = parseMediaPlaylist(await stored('laddered', 'live/index.m3u8'));
    expect(top.segments.length).toBeGreaterThanOrEqual(3);
    for (const rung of master) {
      const playlist = parseMediaPlaylist(await stored('laddered', `${rung.name}/index.m3u8`));
      expect(playlist).toMatchObject({ segments: top.segments, durations: top.durations, ended: true });
      const window = await stored('laddered', `${rung.name.replace('live', 'window')}/index.m3u8`);
      expect(window).toContain(`../${rung.name}/${top.segments[0]}`);
    }
    for (const name of top.segments) {
      const probes = await Promise.all(master.map(async (rung) => probeSegment(await local('laddered', rung.name, name))));
      expect(probes.map((p) => [p.width, p.height, p.codec, p.key])).toEqual([
        [960, 540, 'h264', true],
        [640, 360, 'h264', true],
        [480, 270, 'h264', true],
      ]);
      // the same first instant in every rung (within a frame): players switch at segment boundaries cleanly
      for (const p of probes) expect(Math.abs(p.start - probes[0].start)).toBeLessThan(0.034);
    }
    await recording.dispose();
  });

  it('an HEVC encoder is transcoded into H.264 at its own size; slate between its sessions fills every rung', async () => {
    const file = source(
      'hevc.ts',
      ['-c:v', 'libx265', '-preset', 'ultrafast', '-x265-params', 'keyint=30:min-keyint=30:log-level=error', '-pix_fmt', 'yuv420p'],
      4,
    );
    const recording = new LiveRecording('hevc', 'reduced', path.join(dir, 'work-2'), tools, { ladder: 'full' });
    await recordFile(recording, 'hevc', file, 's1_', 2);
    await recording.startSlate();
    await new Promise((r) => setTimeout(r, 4500));
    await recording.endSlate();
    await recordFile(recording, 'hevc', file, 's3_', 2);
    await recording.close();

    const master = parseMasterPlaylist(await stored('hevc', 'master.m3u8'));
    expect(master.map((v) => v.name)).toEqual(['live', 'live-360p', 'live-270p']);
    for (const rung of master) {
      const names = parseMediaPlaylist(await stored('hevc', `${rung.name}/index.m3u8`)).segments;
      expect(names.some((n) => n.startsWith('slate2_'))).toBe(true);
      expect(names[0].startsWith('s1_') && names[names.length - 1].startsWith('s3_')).toBe(true);
      const probe = probeSegment(await local('hevc', rung.name, names[0]));
      expect([probe.codec, probe.width, probe.height]).toEqual(['h264', rung.width, rung.height]);
      const slate = probeSegment(
        await local(
          'hevc',
          rung.name,
          names.find((n) => n.startsWith('slate2_'))!,
        ),
      );
      expect([slate.width, slate.height, slate.key]).toEqual([rung.width, rung.height, true]);
    }
    await recording.dispose();
  });

  it('a reconnect at another size keeps the first session’s rungs: the lower rungs keep their sizes, the top follows the encoder', async () => {
    const h264 = ['-c:v', 'libx264', '-preset', 'ultrafast', '-g', '30', '-pix_fmt', 'yuv420p'];
    const first = source('first-540p.ts', h264, 4);
    const second = source('second-720p.ts', h264, 4, '1280x720');
    const recording = new LiveRecording('resized', 'reduced', path.join(dir, 'work-4'), tools, { ladder: 'full' });
    await recordFile(recording, 'resized', first, 's1_', 2);
    await recordFile(recording, 'resized', second, 's2_', 2);
    await recording.close();
    const master = parseMasterPlaylist(await stored('resized', 'master.m3u8'));
    expect(master.map((v) => [v.name, v.width, v.height])).toEqual([
      ['live', 960, 540],
      ['live-360p', 640, 360],
      ['live-270p', 480, 270],
    ]);
    const names = parseMediaPlaylist(await stored('resized', 'live/index.m3u8')).segments;
    const reconnected = names.find((n) => n.startsWith('s2_'))!;
    const sizes = await Promise.all(master.map(async (rung) => probeSegment(await local('resized', rung.name, reconnected))));
    expect(sizes.map((p) => [p.width, p.height, p.key])).toEqual([
      [1280, 720, true],
      [640, 360, true],
      [480, 270, true],
    ]);
    await recording.dispose();
  });

  it('low latency (LL-HLS): every rung cut into the same parts, the edge lists them with the hint and the other rungs, segments are whole parts', async () => {
    const file = source('h264-ll.ts', ['-c:v', 'libx264', '-preset', 'ultrafast', '-g', '30', '-pix_fmt', 'yuv420p']);
    const recording = new LiveRecording('low', 'low', path.join(dir, 'work-3'), tools, { ladder: 'full' });
    const session = await recording.startSession(file);
    const windows = ['window', 'window-360p', 'window-270p'];
    const edge = async () => Promise.all(windows.map((w) => stored('low', `${w}/index.m3u8`).catch(() => '')));
    let live = await edge();
    for (const deadline = Date.now() + 60_000; !live.every((w) => w.includes('#EXT-X-PRELOAD-HINT')) && Date.now() < deadline;) {
      await new Promise((r) => setTimeout(r, 20));
      live = await edge();
    }
    const parts = (text: string) => [...text.matchAll(/#EXT-X-PART:DURATION=([\d.]+),URI="\.\.\/([^/]+)\/([^"]+)"(,INDEPENDENT=YES)?/g)];
    // read at one instant, the rungs list the same parts (names and durations), each in its own folder
    expect(parts(live[0]).length).toBeGreaterThan(0);
    for (const [i, text] of live.entries()) {
      expect(text).toContain('#EXT-X-PART-INF:PART-TARGET=0.250');
      expect(parts(text).map((m) => m[2])).toEqual(parts(text).map(() => ['live', 'live-360p', 'live-270p'][i]));
      const others = windows.filter((w) => w !== windows[i]);
      expect([...text.matchAll(/#EXT-X-RENDITION-REPORT:URI="\.\.\/([^/]+)\/index\.m3u8",LAST-MSN=\d+,LAST-PART=\d+/g)].map((m) => m[1])).toEqual(others);
    }
    // the whole file (ffmpeg reads it faster than real time) before the encoder "leaves"
    for (const deadline = Date.now() + 60_000; (await store.list(assetKeys.hls('low', 'live-270p/s1_0'))).length < 5 && Date.now() < deadline;) {
      await new Promise((r) => setTimeout(r, 200));
    }
    // while it records, each listed part is stored in every rung
    const listed = parts(await stored('low', 'window/index.m3u8')).map((m) => m[3].split('?')[0]);
    for (const folder of ['live', 'live-360p', 'live-270p']) {
      const names = new Set((await store.list(assetKeys.hls('low', `${folder}/s1_part`))).map((o) => o.key.split('/').pop()));
      expect(listed.filter((name) => !names.has(name))).toEqual([]);
    }
    await recording.endSession(session);
    const summary = await recording.close();
    expect(summary.duration).toBeCloseTo(6, 0);
    // the closed recording lists segments only: every part is deleted from every rung
    const storedParts = await Promise.all(['live', 'live-360p', 'live-270p'].map(async (f) => (await store.list(assetKeys.hls('low', `${f}/s1_part`))).length));
    expect(storedParts).toEqual([0, 0, 0]);
    // segments of whole parts: each starts on a key frame, at the same instant in every rung
    const top = parseMediaPlaylist(await stored('low', 'live/index.m3u8'));
    expect(top.segments.length).toBeGreaterThanOrEqual(5);
    expect(top.durations.slice(0, -1).every((d) => d >= 1 - 1e-6)).toBe(true);
    for (const name of top.segments.slice(0, 3)) {
      const probes = await Promise.all(['live', 'live-360p', 'live-270p'].map(async (f) => probeSegment(await local('low', f, name))));
      expect(probes.map((p) => [p.height, p.key])).toEqual([
        [540, true],
        [360, true],
        [270, true],
      ]);
      for (const p of probes) expect(Math.abs(p.start - probes[0].start)).toBeLessThan(0.034);
    }
    expect(warnings.filter((w) => w.includes('different instants'))).toEqual([]);
    await recording.dispose();
  });
});
