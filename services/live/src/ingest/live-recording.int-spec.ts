import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { OutboundGuard } from '@platform/outbound';
import { assetKeys, FsObjectStore } from '@platform/storage';
import { parseMediaPlaylist } from './hls-packager';
import { recordingPlaylist } from './live-playlists';
import { LiveRecording, RecordingTools } from './live-recording';

jest.setTimeout(60_000);

const FFMPEG = process.env.FFMPEG_PATH ?? 'ffmpeg';
const FFPROBE = process.env.FFPROBE_PATH ?? 'ffprobe';

/**
 * A recording a killed live service left open, restored from what it stored (issue 12, drill 2):
 * its segments, spans and media are read back, and closing it, or continuing it, goes on from there.
 */
describe('LiveRecording.restore (ffmpeg, filesystem store)', () => {
  let dir: string;
  let store: FsObjectStore;
  let tools: RecordingTools;
  let media: string[];
  const warnings: string[] = [];

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'live-restore-'));
    store = new FsObjectStore(path.join(dir, 'objects'));
    tools = { ffmpegPath: FFMPEG, ffprobePath: FFPROBE, speechPython: 'python3', store, guard: new OutboundGuard('loopback'), warn: (m) => warnings.push(m) };
    const out = path.join(dir, 'media');
    fs.mkdirSync(out);
    execFileSync(FFMPEG, [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=320x240:rate=25',
      '-f',
      'lavfi',
      '-i',
      'sine=sample_rate=48000',
      '-t',
      '8',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-g',
      '50',
      '-c:a',
      'aac',
      '-f',
      'hls',
      '-hls_time',
      '2',
      '-hls_list_size',
      '0',
      '-hls_segment_filename',
      path.join(out, 'm%05d.ts'),
      path.join(out, 'index.m3u8'),
    ]);
    media = parseMediaPlaylist(fs.readFileSync(path.join(out, 'index.m3u8'), 'utf8')).segments.map((s) => path.join(out, s));
  });

  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** What a killed service had stored: content, slate, content again, and trailing slate (2 s segments). */
  async function stored(assetId: string): Promise<Array<{ name: string; duration: number; discontinuity: boolean }>> {
    const names = ['s1_00000.ts', 's1_00001.ts', 'slate2_00000.ts', 's3_00000.ts', 'slate4_00000.ts'];
    const segments = names.map((name, i) => ({ name, duration: 2, discontinuity: i === 2 || i === 3 || i === 4 }));
    for (const [i, s] of segments.entries()) await store.putFile(assetKeys.hls(assetId, `live/${s.name}`), media[i % media.length]);
    await store.putBuffer(assetKeys.hls(assetId, 'live/index.m3u8'), recordingPlaylist(segments, false, 'reduced'));
    return segments;
  }

  it('closes into the recording it was: trailing slate dropped, playlist ended, spans and media read back', async () => {
    await stored('restored');
    const started = Date.now();
    const recording = await LiveRecording.restore('restored', 'reduced', path.join(dir, 'work-1'), tools);
    const summary = await recording.close();
    expect(summary).toMatchObject({ duration: 8, segments: 4, video: { width: 320, height: 240 }, audio: { channels: 1 } });
    expect(summary.recordingTimes.map((t) => [t.type, t.duration])).toEqual([
      ['content', 4],
      ['slate', 2],
      ['content', 2],
    ]);
    for (const t of summary.recordingTimes) expect(Math.abs(Date.parse(t.started_at) - started)).toBeLessThan(60_000);
    const playlist = (await store.getBuffer(assetKeys.hls('restored', 'live/index.m3u8'))).toString('utf8');
    expect(playlist).toContain('#EXT-X-ENDLIST');
    expect(parseMediaPlaylist(playlist).segments).toEqual(['s1_00000.ts', 's1_00001.ts', 'slate2_00000.ts', 's3_00000.ts']);
    expect(await store.stat(assetKeys.hls('restored', 'live/slate4_00000.ts'))).toBeUndefined();
    await recording.dispose();
  });

  it('is empty when nothing was stored (the asset is then errored, not left preparing)', async () => {
    const recording = await LiveRecording.restore('nothing', 'standard', path.join(dir, 'work-2'), tools);
    expect(await recording.close()).toMatchObject({ duration: 0, segments: 0, recordingTimes: [] });
  });

  it('goes on with a reconnect: a new span after a discontinuity, numbered after the restored ones', async () => {
    await stored('continued');
    const recording = await LiveRecording.restore('continued', 'reduced', path.join(dir, 'work-3'), tools);
    const session = await recording.startSession(media[0]);
    const deadline = Date.now() + 20_000;
    while (!(await store.list(assetKeys.hls('continued', 'live/s5_'))).length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    await recording.endSession(session);
    const summary = await recording.close();
    const playlist = (await store.getBuffer(assetKeys.hls('continued', 'live/index.m3u8'))).toString('utf8');
    const names = parseMediaPlaylist(playlist).segments;
    expect(names.slice(0, 5)).toEqual(['s1_00000.ts', 's1_00001.ts', 'slate2_00000.ts', 's3_00000.ts', 'slate4_00000.ts']);
    expect(names.slice(5).every((n) => n.startsWith('s5_'))).toBe(true);
    expect(names.length).toBeGreaterThan(5);
    expect(playlist.match(/#EXT-X-DISCONTINUITY/g)).toHaveLength(4);
    expect(summary.recordingTimes.map((t) => t.type)).toEqual(['content', 'slate', 'content', 'slate', 'content']);
    await recording.dispose();
  });
});
