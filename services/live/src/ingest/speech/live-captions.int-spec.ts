import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { assetKeys, FsObjectStore } from '@platform/storage';
import { parseMediaPlaylist } from '../hls-packager';
import { probeMedia } from '../media/media-probe';
import { LiveCaptions } from './live-captions';

jest.setTimeout(60_000);

const scripts = resolve(__dirname, '../../../../../scripts/infra');
const sh = (...args: string[]) => execFileSync('bash', args, { encoding: 'utf8' }).trim();
const SPEECH = 'Hello world. The weather is nice today. One two three four five six seven eight nine ten. Good morning and welcome to the show.';
/** Words PocketSphinx's en-us model hears in espeak-ng's en-us voice saying SPEECH (it misses some of the others). */
const HEARD = ['weather', 'three', 'four', 'five', 'six', 'morning', 'show'];
const heardIn = (text: string) => HEARD.filter((w) => new RegExp(`\\b${w}\\b`).test(text));
const cueText = (vtt: string) =>
  vtt
    .split('\n')
    .filter((l) => l !== '' && !l.includes('-->') && !l.startsWith('WEBVTT') && !l.startsWith('X-TIMESTAMP-MAP'))
    .join(' ');

interface Segment {
  name: string;
  file: string;
  duration: number;
}

/**
 * Generated live subtitles against the real recognizer (PocketSphinx in Python, made by
 * scripts/infra/speech.sh) and ffmpeg: spoken English (espeak-ng) under a test pattern, cut into
 * 2 s HLS segments as the live packager cuts them, heard segment by segment.
 */
describe('LiveCaptions (PocketSphinx, ffmpeg)', () => {
  const ffmpegPath = sh(join(scripts, 'ffmpeg.sh'), 'ffmpeg');
  const ffprobePath = sh(join(scripts, 'ffmpeg.sh'), 'ffprobe');
  const pythonPath = sh(join(scripts, 'speech.sh'));
  let dir: string;
  let store: FsObjectStore;
  let segments: Segment[];
  let startTime: number | undefined;
  const warnings: string[] = [];

  const captions = (assetId: string) => new LiveCaptions(assetId, 'reduced', { ffmpegPath, pythonPath, store, warn: (m) => warnings.push(m) });
  const stored = async (assetId: string, file: string) => (await store.getBuffer(assetKeys.hls(assetId, file))).toString('utf8');

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'live-captions-'));
    store = new FsObjectStore(join(dir, 'objects'));
    const espeak = sh(join(scripts, 'speech.sh'), 'voice');
    execFileSync(espeak, ['-v', 'en-us', '-s', '130', '-w', join(dir, 'speech.wav'), SPEECH]);
    const media = join(dir, 'media');
    execFileSync('mkdir', ['-p', media]);
    execFileSync(ffmpegPath, [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=320x240:rate=25',
      '-i',
      join(dir, 'speech.wav'),
      '-filter_complex',
      '[1:a]apad=pad_dur=2[a]',
      '-map',
      '0:v',
      '-map',
      '[a]',
      '-shortest',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-g',
      '50',
      '-c:a',
      'aac',
      '-ar',
      '48000',
      '-f',
      'hls',
      '-hls_time',
      '2',
      '-hls_list_size',
      '0',
      '-hls_segment_filename',
      join(media, 's1_%05d.ts'),
      join(media, 'index.m3u8'),
    ]);
    const playlist = parseMediaPlaylist(readFileSync(join(media, 'index.m3u8'), 'utf8'));
    segments = playlist.segments.map((name, i) => ({ name, file: join(media, name), duration: playlist.durations[i] }));
    startTime = (await probeMedia(ffprobePath, segments[0].file)).startTime;
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('hears a session into a subtitle segment per media segment, a playlist like the media one, and the recording’s cues', async () => {
    const live = captions('one-span');
    for (const s of segments) live.segmentStored({ ...s, span: 0, content: true, discontinuity: false, spanStartTime: startTime });
    await live.endSpan(0);
    expect(await stored('one-span', 'subs/index.m3u8')).toContain('#EXT-X-PLAYLIST-TYPE:EVENT');

    const cues = await live.close(segments.length);
    const playlist = await stored('one-span', 'subs/index.m3u8');
    const listed = parseMediaPlaylist(playlist);
    expect(listed.segments).toEqual(segments.map((s) => s.name.replace('.ts', '.vtt')));
    expect(listed.durations).toEqual(segments.map((s) => s.duration));
    expect(listed.ended).toBe(true);
    expect(await stored('one-span', 'subs-window/index.m3u8')).toContain(`../subs/${segments[segments.length - 1].name.replace('.ts', '.vtt')}`);

    const vtts = await Promise.all(listed.segments.map((name) => stored('one-span', `subs/${name}`)));
    for (const vtt of vtts) expect(vtt.startsWith(`WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:${Math.round(startTime! * 90_000)},LOCAL:00:00:00.000\n`)).toBe(true);
    expect(heardIn(vtts.map(cueText).join(' ')).length).toBeGreaterThanOrEqual(3);

    const total = segments.reduce((sum, s) => sum + s.duration, 0);
    expect(heardIn(cues.map((c) => c.text.replace(/\n/g, ' ')).join(' ')).length).toBeGreaterThanOrEqual(3);
    for (const [i, c] of cues.entries()) {
      expect(c.start).toBeLessThan(c.end);
      expect(c.end).toBeLessThanOrEqual(total + 0.01);
      if (i > 0) expect(c.start).toBeGreaterThanOrEqual(cues[i - 1].start);
    }
    expect(warnings).toEqual([]);
  });

  it('writes slate’s subtitle segments empty, moves a reconnect’s cues to its place in the recording, and drops trailing slate', async () => {
    const live = captions('spans');
    const slate = segments.slice(0, 2);
    const add = (list: Segment[], span: number, content: boolean) =>
      list.forEach((s, i) =>
        live.segmentStored({ ...s, name: `${span}_${s.name}`, span, content, discontinuity: span > 0 && i === 0, spanStartTime: startTime }),
      );
    add(segments, 0, true);
    add(slate, 1, false);
    add(segments, 2, true);
    add(slate, 3, false);
    const kept = segments.length * 2 + slate.length;
    const cues = await live.close(kept);

    const listed = parseMediaPlaylist(await stored('spans', 'subs/index.m3u8'));
    expect(listed.segments).toHaveLength(kept);
    expect((await stored('spans', 'subs/index.m3u8')).match(/#EXT-X-DISCONTINUITY/g)).toHaveLength(2);
    for (const s of slate) expect(await stored('spans', `subs/1_${s.name.replace('.ts', '.vtt')}`)).not.toContain('-->');
    await expect(store.stat(assetKeys.hls('spans', `subs/3_${slate[0].name.replace('.ts', '.vtt')}`))).resolves.toBeUndefined();

    const spanLength = segments.reduce((sum, s) => sum + s.duration, 0);
    const reconnectAt = spanLength + slate.reduce((sum, s) => sum + s.duration, 0);
    const first = cues.filter((c) => c.start < spanLength);
    const second = cues.filter((c) => c.start >= reconnectAt);
    expect(first.length).toBeGreaterThan(0);
    expect(second.map((c) => [c.start - reconnectAt, c.text])).toEqual(first.map((c) => [expect.closeTo(c.start, 2), c.text]));
    expect(cues.filter((c) => c.start >= spanLength && c.start < reconnectAt)).toEqual([]);
  });

  it('hears the whole recording again for generated_live_final', async () => {
    const live = captions('final');
    for (const s of segments) live.segmentStored({ ...s, span: 0, content: true, discontinuity: false, spanStartTime: startTime });
    await live.close(segments.length);
    const final = await live.transcribeRecording();
    expect(heardIn(final.map((c) => c.text.replace(/\n/g, ' ')).join(' ')).length).toBeGreaterThanOrEqual(3);
    expect(final.every((c) => c.start < c.end)).toBe(true);
  });

  it('restores a recording’s cues from the subtitle segments it stored (a restarted service closing what a killed one left)', async () => {
    const live = captions('restored');
    const segmentsOf = (list: Segment[]) => list.map((seg) => ({ ...seg, span: 0, content: true, discontinuity: false, spanStartTime: startTime }));
    for (const seg of segmentsOf(segments)) live.segmentStored(seg);
    await live.endSpan(0); // every subtitle segment is stored; then the process is killed
    const restored = captions('restored');
    await restored.restore(segmentsOf(segments));
    const cues = await restored.close(segments.length);
    const original = await live.close(segments.length);
    const rounded = (list: typeof cues) => list.map((c) => [Math.round(c.start * 1000), Math.round(c.end * 1000), c.text]);
    expect(cues.length).toBeGreaterThan(0);
    expect(rounded(cues)).toEqual(rounded(original));
    expect(parseMediaPlaylist(await stored('restored', 'subs/index.m3u8')).ended).toBe(true);
  });
});
