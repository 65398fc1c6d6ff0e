import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import Mux from '@mux/mux-node';
import { Browser } from 'playwright-core';
import { playlistUris, resolveUri, settledAsset, streamUrl } from './support/assets';
import { api, sdk } from './support/context';
import { eventually } from './support/encoder';
import { launchChromium, playInBrowser, servePlayerPage } from './support/hls-player';
import { FFMPEG, FFPROBE, ffprobe, FileServer, serveFiles } from './support/media';
import { itOnceAcrossModes } from './support/modes';
import { cueText, spokenEnglish, wordsHeardIn } from './support/speech';
import { receivedWebhooks } from './support/webhook-receiver';

jest.setTimeout(300_000);
const run = promisify(execFile);

type Track = NonNullable<Awaited<ReturnType<Mux['video']['assets']['retrieve']>>['tracks']>[number] & { error?: { type: string; messages: string[] } };

const SRT = [
  '1',
  '00:00:00,500 --> 00:00:02,000',
  '<b>Hello</b> <font color="#ff0000">there</font>',
  '',
  '2',
  '00:00:03,000 --> 00:00:02,000',
  'backwards: skipped',
  '',
  '3',
  '00:00:04,500 --> 00:00:07,000',
  '{\\an8}<i>On top</i> & more',
  '',
].join('\n');
const VTT = 'WEBVTT\n\nNOTE made by the test\n\nintro\n00:01.000 --> 00:05.000 line:0 align:start\n<v Narrator>Hola</v> <u>mundo</u>\n';

/** The asset's tracks once none is preparing. */
async function settledTracks(mux: Mux, assetId: string, timeoutMs = 180_000): Promise<Track[]> {
  return eventually(
    async () => ((await mux.video.assets.retrieve(assetId)).tracks ?? []) as Track[],
    (tracks) => tracks.length > 0 && tracks.every((t) => t.status !== 'preparing'),
    timeoutMs,
  );
}

const text = async (url: string) => {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return res.text();
};

/**
 * Text tracks (SRT and WebVTT), an alternate audio track and generated subtitles of one on-demand asset,
 * through the SDK; the master's rendition groups, the segmented WebVTT and the audio rendition read back
 * over HTTP; the delete rules; the webhooks; and hls.js in Chromium choosing a subtitle and the alternate
 * audio.
 */
describe('asset tracks', () => {
  const mux = sdk();
  let dir: string;
  let files: FileServer;
  let assetId: string;
  let playbackId: string;
  let tracks: Track[];
  /** The text track of that name (the alternate audio: `French`). */
  const byName = (name: string) => tracks.find((t) => t.name === name && (t.type === 'text' || !t.primary))!;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-tracks-'));
    const speech = await spokenEnglish(dir);
    // 12 s of 320x240 video with spoken English as its sound; a 5 s tone as the French audio (padded to the video's length)
    await run(FFMPEG, [
      ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=25:duration=12', '-i', speech],
      ...['-filter_complex', '[1:a]apad=whole_dur=12[a]', '-map', '0:v', '-map', '[a]', '-t', '12', '-c:v', 'libx264', '-preset', 'ultrafast', '-g', '50'],
      ...['-pix_fmt', 'yuv420p', '-c:a', 'aac', '-ac', '2', '-ar', '48000', path.join(dir, 'spoken.mp4')],
    ]);
    await run(FFMPEG, ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=660:sample_rate=44100:duration=5', '-c:a', 'aac', path.join(dir, 'fr.m4a')]);
    fs.writeFileSync(path.join(dir, 'en.srt'), SRT);
    fs.writeFileSync(path.join(dir, 'es.vtt'), VTT);
    fs.writeFileSync(path.join(dir, 'bad.srt'), '1\n00:00:05,000 --> 00:00:01,000\nbackwards\n\nnot a cue at all\n');
    files = await serveFiles(dir);

    const asset = await mux.video.assets.create({
      inputs: [
        { url: files.url('spoken.mp4'), language_code: 'en', generated_subtitles: [{ language_code: 'en' }] },
        { url: files.url('en.srt'), type: 'text', text_type: 'subtitles', language_code: 'en', closed_captions: true, passthrough: 'srt' },
        { url: files.url('fr.m4a'), type: 'audio', language_code: 'fr' },
      ],
      playback_policies: ['public'],
    });
    assetId = asset.id;
    playbackId = asset.playback_ids![0].id;
    expect(asset.tracks!.map((t) => [t.type, t.name, t.status])).toEqual([
      ['text', 'English', 'preparing'],
      ['audio', 'French', 'preparing'],
      ['text', 'English (generated)', 'preparing'],
    ]);
    expect((await settledAsset(mux, assetId)).status).toBe('ready');

    // tracks added to the ready asset: a WebVTT file, a file that is no subtitles, generated subtitles in a language without a model
    const vtt = await mux.video.assets.createTrack(assetId, { url: files.url('es.vtt'), type: 'text', language_code: 'es' });
    expect(vtt).toMatchObject({ type: 'text', text_type: 'subtitles', text_source: 'uploaded', language_code: 'es', name: 'Spanish', status: 'preparing' });
    await mux.video.assets.createTrack(assetId, { url: files.url('bad.srt'), type: 'text', language_code: 'en', name: 'Broken' });
    const primary = (await mux.video.assets.retrieve(assetId)).tracks!.find((t) => t.type === 'audio' && t.primary)!;
    const german = await mux.video.assets.generateSubtitles(assetId, primary.id!, { generated_subtitles: [{ language_code: 'de' }] });
    expect(german.map((t) => [t.name, t.text_source, t.status])).toEqual([['German (generated)', 'generated_vod', 'preparing']]);
    tracks = await settledTracks(mux, assetId);
  });

  afterAll(async () => {
    await files?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('makes every track: ready from SRT, WebVTT, audio and English speech; errored with the reason for a bad file and a language without a model', () => {
    expect(tracks.map((t) => [t.type, t.name, t.status, t.primary ?? null])).toEqual([
      ['video', undefined, undefined, null],
      ['audio', 'English', undefined, true],
      ['text', 'English', 'ready', null],
      ['audio', 'French', 'ready', false],
      ['text', 'English (generated)', 'ready', null],
      ['text', 'Spanish', 'ready', null],
      ['text', 'Broken', 'errored', null],
      ['text', 'German (generated)', 'errored', null],
    ]);
    expect(byName('English')).toMatchObject({ closed_captions: true, passthrough: 'srt', language_code: 'en', text_source: 'uploaded' });
    expect(tracks[1]).toMatchObject({ language_code: 'en', name: 'English' }); // the main input names its own audio
    expect(byName('French')).toMatchObject({ language_code: 'fr', max_channels: 2 });
    expect(byName('French').duration).toBeCloseTo(12, 1); // the video's, the 5 s file padded with silence
    expect(byName('Broken').error).toEqual({
      type: 'invalid_input',
      messages: [
        'The SubRip (SRT) file has no valid cue: 2 of 2 cues skipped: cue 1 (line 2): it ends before it starts (or when it starts); cue 2 (line 5): it has no timing line',
      ],
    });
    expect(byName('German (generated)').error).toEqual({
      type: 'not_supported',
      messages: [
        'No speech recognition model for German (de) is installed here: PocketSphinx en-us is the only one, so subtitles can be generated in English (en) only.',
      ],
    });
  });

  it('serves each text track whole as WebVTT, styling and cue settings kept, the bad cue left out and reported as a warning', async () => {
    const srt = await text(streamUrl(`${playbackId}/text/${byName('English').id}.vtt`));
    expect(srt).toBe(
      [
        'WEBVTT',
        '',
        'STYLE',
        '::cue(.color_ff0000) {',
        '  color: #ff0000;',
        '}',
        '',
        '00:00:00.500 --> 00:00:02.000',
        '<b>Hello</b> <c.color_ff0000>there</c>',
        '',
        '00:00:04.500 --> 00:00:07.000 line:0',
        '<i>On top</i> &amp; more',
        '',
      ].join('\n'),
    );
    expect(await text(streamUrl(`${playbackId}/text/${byName('Spanish').id}.vtt`))).toBe(
      'WEBVTT\n\nintro\n00:00:01.000 --> 00:00:05.000 line:0 align:start\n<v Narrator>Hola</v> <u>mundo</u>\n',
    );
    const warnings = await eventually(
      () =>
        Promise.resolve(
          receivedWebhooks().map((w) => JSON.parse(w.body) as { type: string; object: { id: string }; data: { warning?: { type: string; message: string } } }),
        ),
      (hooks) => hooks.some((h) => h.type === 'video.asset.warning' && h.object.id === assetId),
      30_000,
    );
    expect(warnings.find((h) => h.type === 'video.asset.warning' && h.object.id === assetId)!.data.warning).toEqual({
      type: 'text_track_cues_skipped',
      message: `Text track ${byName('English').id} (English): 1 of 3 cues skipped: cue 2 (line 6): it ends before it starts (or when it starts)`,
    });
  });

  it('hears the spoken English of the video in the generated subtitles', async () => {
    const vtt = await text(streamUrl(`${playbackId}/text/${byName('English (generated)').id}.vtt`));
    expect(wordsHeardIn(cueText(vtt)).length).toBeGreaterThanOrEqual(3);
  });

  it('lists the ready tracks in the master: a SUBTITLES group (SDH characteristics for closed captions) and an AUDIO group with the muxed primary', async () => {
    const master = await text(streamUrl(`${playbackId}.m3u8`));
    const media = master.split('\n').filter((l) => l.startsWith('#EXT-X-MEDIA'));
    const uri = (id: string, type: string) => `URI="${playbackId}/${type}-${id}/index.m3u8?grant=`;
    expect(media.map((l) => l.replace(/\?grant=[^"]+"/, '?grant="'))).toEqual([
      `#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",LANGUAGE="en",DEFAULT=NO,AUTOSELECT=YES,CHARACTERISTICS="public.accessibility.transcribes-spoken-dialog,public.accessibility.describes-music-and-sound",${uri(byName('English').id!, 'text')}"`,
      `#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English (generated)",LANGUAGE="en",DEFAULT=NO,AUTOSELECT=YES,${uri(byName('English (generated)').id!, 'text')}"`,
      `#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="Spanish",LANGUAGE="es",DEFAULT=NO,AUTOSELECT=YES,${uri(byName('Spanish').id!, 'text')}"`,
      '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="audio",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES',
      `#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="audio",NAME="French",LANGUAGE="fr",DEFAULT=NO,AUTOSELECT=YES,${uri(byName('French').id!, 'audio')}"`,
    ]);
    const variants = master.split('\n').filter((l) => l.startsWith('#EXT-X-STREAM-INF'));
    expect(variants.length).toBeGreaterThan(0);
    expect(variants.every((l) => l.endsWith(',SUBTITLES="subs",AUDIO="audio"'))).toBe(true);
  });

  itOnceAcrossModes(
    'segments each text track like the video, each segment mapped to the video’s MPEG-TS timestamps; the alternate audio lasts what the video does',
    async () => {
      const masterUrl = streamUrl(`${playbackId}.m3u8`);
      const master = await text(masterUrl);
      const videoUrl = resolveUri(masterUrl, playlistUris(master)[0]);
      const videoSegments = playlistUris(await text(videoUrl)).map((u) => resolveUri(videoUrl, u));
      const { stdout } = await run(FFPROBE, ['-v', 'error', '-show_entries', 'stream=codec_type,start_time', '-of', 'json', videoSegments[0]]);
      const start = (JSON.parse(stdout) as { streams: Array<{ codec_type: string; start_time: string }> }).streams.find((s) => s.codec_type === 'video')!;
      const mpegTs = Math.round(Number(start.start_time) * 90_000);

      const subsUrl = resolveUri(masterUrl, /TYPE=SUBTITLES,[^\n]*NAME="English",[^\n]*URI="([^"]+)"/.exec(master)![1]);
      const subsPlaylist = await text(subsUrl);
      expect(subsPlaylist).toContain('#EXT-X-PLAYLIST-TYPE:VOD');
      const segments = playlistUris(subsPlaylist).map((u) => resolveUri(subsUrl, u));
      expect(segments).toHaveLength(videoSegments.length);
      const bodies = await Promise.all(segments.map(text));
      for (const body of bodies) expect(body.split('\n').slice(0, 2)).toEqual(['WEBVTT', `X-TIMESTAMP-MAP=MPEGTS:${mpegTs},LOCAL:00:00:00.000`]);
      expect(bodies[0]).toContain('00:00:00.500 --> 00:00:02.000\n<b>Hello</b> <c.color_ff0000>there</c>');

      const audioUrl = resolveUri(masterUrl, /TYPE=AUDIO,[^\n]*URI="([^"]+)"/.exec(master)![1]);
      const [audio, video] = await Promise.all([ffprobe(audioUrl), ffprobe(videoUrl)]);
      expect(audio.streams.map((s) => [s.codec_type, s.codec_name, s.channels])).toEqual([['audio', 'aac', 2]]);
      expect(Number(audio.format.duration)).toBeCloseTo(Number(video.format.duration), 1);
    },
  );

  it('refuses to delete video and audio tracks, deletes a text track: gone from the asset, the master and storage, with its webhooks', async () => {
    for (const [track, message] of [
      [tracks[0], `track ${tracks[0].id}: video tracks cannot be deleted; only text tracks can`],
      [tracks[1], `track ${tracks[1].id}: the primary audio track (the main input's own audio) cannot be deleted; only text tracks can`],
      [byName('French'), `track ${byName('French').id}: audio tracks cannot be deleted; only text tracks can`],
    ] as const) {
      const res = await api('DELETE', `/video/v1/assets/${assetId}/tracks/${track.id}`);
      expect([res.status, res.body]).toEqual([400, { error: { type: 'invalid_parameters', messages: [message] } }]);
    }
    const spanish = byName('Spanish');
    await mux.video.assets.deleteTrack(assetId, spanish.id!);
    expect(((await mux.video.assets.retrieve(assetId)).tracks ?? []).map((t) => t.id)).not.toContain(spanish.id);
    expect(await text(streamUrl(`${playbackId}.m3u8`))).not.toContain(spanish.id);
    expect((await fetch(streamUrl(`${playbackId}/text/${spanish.id}.vtt`))).status).toBe(404);
    expect((await api('DELETE', `/video/v1/assets/${assetId}/tracks/${spanish.id}`)).status).toBe(404);

    // every track event of the asset, verified with the SDK's unwrap
    const hooks = await eventually(
      () => Promise.resolve(receivedWebhooks().filter((w) => (JSON.parse(w.body) as { data: { asset_id?: string } }).data.asset_id === assetId)),
      (list) => list.some((w) => w.body.includes('"video.asset.track.deleted"')),
      30_000,
    );
    const events = await Promise.all(hooks.map((w) => mux.webhooks.unwrap(w.body, w.headers, process.env.E2E_WEBHOOK_SECRET)));
    expect(new Set(events.map((e) => e.type))).toEqual(
      new Set(['video.asset.track.created', 'video.asset.track.ready', 'video.asset.track.errored', 'video.asset.track.deleted']),
    );
    const deleted = events.find((e) => e.type === 'video.asset.track.deleted')!;
    expect(deleted.data).toEqual({ ...spanish, status: 'deleted', asset_id: assetId });
    const errored = events.find((e) => e.type === 'video.asset.track.errored' && (e.data as Track).name === 'Broken')!;
    expect((errored.data as Track).error).toEqual(byName('Broken').error);
  });

  itOnceAcrossModes('plays in hls.js (Chromium): a subtitle track shows its cues, the alternate audio plays, and back to the primary', async () => {
    const player = await servePlayerPage();
    let browser: Browser | undefined;
    try {
      browser = await launchChromium();
      const src = streamUrl(`${playbackId}.m3u8`);
      const subtitles = await playInBrowser(browser, player.url(src, { subtitleName: 'English' }), 5);
      expect(subtitles.fatal).toBeNull();
      expect(subtitles.subtitleTracks.map((t) => t.name).slice(0, 2)).toEqual(['English', 'English (generated)']);
      // hls.js puts both on its media timeline by their MPEG-TS times, so the cues keep their times, shifted
      // as the video's first frame is (its B-frame delay, under a frame or two)
      const [hello, top] = ['Hello', 'On top'].map((words) => subtitles.cues.find((c) => c.text.includes(words))!);
      const shift = hello.start - 0.5;
      expect(shift).toBeGreaterThanOrEqual(0);
      expect(shift).toBeLessThan(0.15);
      expect([hello.end - shift, top.start - shift, top.end - shift].map((t) => Math.round(t * 1000) / 1000)).toEqual([2, 4.5, 7]);

      const audio = await playInBrowser(browser, player.url(src, { audio: 1, audioBack: 4 }), 8);
      expect(audio.fatal).toBeNull();
      expect(audio.mediaError).toBeNull();
      expect(audio.audioTracks).toEqual([
        { name: 'English', lang: 'en', default: true, alternate: false },
        { name: 'French', lang: 'fr', default: false, alternate: true },
      ]);
      expect(audio.audioSwitches).toEqual([0, 1, 0]); // the default at the start, the alternate, the default again
      expect(audio.fragmentUrls.audio.length).toBeGreaterThan(0);
      expect(audio.fragmentUrls.audio.every((u) => u.includes(`/audio-${byName('French').id}/`))).toBe(true);
      expect(audio.currentTime).toBeGreaterThanOrEqual(8);
    } finally {
      await browser?.close();
      await player.close();
    }
  });
});
