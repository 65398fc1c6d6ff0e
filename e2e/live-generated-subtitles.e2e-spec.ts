import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { playlistUris, resolveUri, settledAsset, streamUrl } from './support/assets';
import { sdk } from './support/context';
import { eventually } from './support/encoder';
import { launchChromium, playInBrowser, servePlayerPage } from './support/hls-player';
import { cueText, pushRtmpSpeech, spokenEnglish, wordsHeardIn } from './support/speech';
import { receivedWebhooks } from './support/webhook-receiver';

jest.setTimeout(180_000);

/**
 * Generated live subtitles (spec 2.3, 3): an encoder speaking English; the recorded asset has a
 * `generated_live` track (ready while live, segmented WebVTT in the live HLS) and a
 * `generated_live_final` track (the recording heard again, ready after the stream ends).
 */
describe('live generated subtitles', () => {
  const mux = sdk();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'generated-subtitles-'));
  /** The recording of the first test, played by the second. */
  let recorded: { playbackId: string; liveTrackId: string; duration: number } | undefined;

  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('captions the stream live in its HLS, and its asset gets generated_live and generated_live_final tracks with what was said', async () => {
    const wav = await spokenEnglish(dir);
    const stream = await mux.video.liveStreams.create({
      playback_policies: ['public'],
      new_asset_settings: { playback_policies: ['public'] },
      latency_mode: 'reduced',
      generated_subtitles: [{ name: 'English (live)', language_code: 'en', passthrough: 'auto captions' }],
    });
    const encoder = pushRtmpSpeech(stream.stream_key, wav, 2);
    const active = await eventually(
      () => mux.video.liveStreams.retrieve(stream.id),
      (s) => s.active_asset_id !== undefined,
      30_000,
    );
    const assetId = active.active_asset_id!;

    // while live: both tracks exist; generated_live is ready, generated_live_final is not before the stream ends
    const common = { type: 'text', text_type: 'subtitles', language_code: 'en', name: 'English (live)', passthrough: 'auto captions' };
    const live = await mux.video.assets.retrieve(assetId);
    expect(live.status).toBe('preparing');
    expect(live.tracks!.filter((t) => t.type === 'text')).toEqual([
      expect.objectContaining({ ...common, text_source: 'generated_live', status: 'ready' }),
      expect.objectContaining({ ...common, text_source: 'generated_live_final', status: 'preparing' }),
    ]);

    // the live master names a SUBTITLES rendition; its playlist fills with WebVTT segments while the encoder speaks
    const masterUrl = streamUrl(`${stream.playback_ids![0].id}.m3u8`);
    const master = await eventually(
      async () => (await fetch(masterUrl)).text(),
      (text) => text.includes('#EXT-X-STREAM-INF'),
      30_000,
    );
    expect(master).toMatch(/#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English \(live\)",LANGUAGE="en",DEFAULT=NO,AUTOSELECT=YES,URI="[^"]+"/);
    expect(master).toMatch(/#EXT-X-STREAM-INF:[^\n]*SUBTITLES="subs"/);
    const subsUrl = resolveUri(masterUrl, /TYPE=SUBTITLES[^\n]*URI="([^"]+)"/.exec(master)![1]);
    const heardLive = await eventually(
      async () => {
        const playlist = await (await fetch(subsUrl)).text();
        const vtts = await Promise.all(playlistUris(playlist).map(async (uri) => (await fetch(resolveUri(subsUrl, uri))).text()));
        return { playlist, vtts, words: wordsHeardIn(vtts.map(cueText).join(' ')) };
      },
      (r) => r.words.length >= 2,
      40_000,
    );
    expect(encoder.child.exitCode).toBeNull(); // heard while the encoder is still on
    expect(heardLive.playlist).toContain('#EXT-X-MEDIA-SEQUENCE:');
    for (const vtt of heardLive.vtts) expect(vtt).toMatch(/^WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:\d+,LOCAL:00:00:00.000\n/);

    // the stream ends: the asset is ready with the live captions; the final ones follow
    expect(await encoder.exited).toBe(0);
    await eventually(
      () => mux.video.liveStreams.retrieve(stream.id),
      (s) => s.status === 'idle',
      30_000,
    );
    expect((await settledAsset(mux, assetId)).status).toBe('ready');
    const done = await eventually(
      () => mux.video.assets.retrieve(assetId),
      (a) => a.tracks!.some((t) => t.text_source === 'generated_live_final' && t.status !== 'preparing'),
      60_000,
    );
    const [liveTrack, finalTrack] = done.tracks!.filter((t) => t.type === 'text');
    expect([liveTrack.text_source, liveTrack.status, finalTrack.text_source, finalTrack.status]).toEqual([
      'generated_live',
      'ready',
      'generated_live_final',
      'ready',
    ]);

    const playbackId = done.playback_ids![0].id;
    recorded = { playbackId, liveTrackId: liveTrack.id!, duration: done.duration! };
    for (const track of [liveTrack, finalTrack]) {
      const res = await fetch(streamUrl(`${playbackId}/text/${track.id}.vtt`));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/vtt');
      const vtt = await res.text();
      expect(vtt.startsWith('WEBVTT')).toBe(true);
      expect(wordsHeardIn(cueText(vtt)).length).toBeGreaterThanOrEqual(3);
      const times = [...vtt.matchAll(/(\d\d):(\d\d):(\d\d)\.(\d{3}) --> /g)].map(
        (m) => Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]) + Number(m[4]) / 1000,
      );
      expect(Math.max(...times)).toBeLessThanOrEqual(done.duration!);
    }

    // the recorded asset's own HLS keeps the subtitle rendition, now a VOD playlist
    const vodMaster = await (await fetch(streamUrl(`${playbackId}.m3u8`))).text();
    const vodSubs = resolveUri(streamUrl(`${playbackId}.m3u8`), /TYPE=SUBTITLES[^\n]*URI="([^"]+)"/.exec(vodMaster)![1]);
    expect(await (await fetch(vodSubs)).text()).toContain('#EXT-X-ENDLIST');

    const events = await eventually(
      async () =>
        receivedWebhooks()
          .map((w) => JSON.parse(w.body) as { type: string; object: { id: string } })
          .filter((e) => e.object.id === finalTrack.id)
          .map((e) => e.type),
      (types) => types.includes('video.asset.track.ready'),
      30_000,
    );
    expect(events).toEqual(['video.asset.track.created', 'video.asset.track.ready']);
  });

  it('shows the recording’s generated subtitles in hls.js (Chromium) at the times of its WebVTT track', async () => {
    expect(recorded).toBeDefined();
    const { playbackId, liveTrackId, duration } = recorded!;
    const vtt = await (await fetch(streamUrl(`${playbackId}/text/${liveTrackId}.vtt`))).text();
    const expected = [...vtt.matchAll(/(\d\d):(\d\d):(\d\d\.\d{3}) --> [^\n]+\n([^]+?)(?:\n\n|\n?$)/g)].map((m) => ({
      start: Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]),
      text: m[4],
    }));
    const player = await servePlayerPage();
    const browser = await launchChromium();
    try {
      const state = await playInBrowser(browser, player.url(streamUrl(`${playbackId}.m3u8`), { subtitles: true, rate: 4 }), duration - 1, 90_000);
      expect(state.fatal).toBeNull();
      expect(state.subtitleTracks).toEqual([{ name: 'English (live)', lang: 'en' }]);
      // every cue the player shows is one of the track's, at its time (the segments' timestamp map
      // lines them up); the speech is said twice, so a text may stand at two times: the nearest counts
      expect(state.cues.length).toBeGreaterThanOrEqual(3);
      for (const cue of state.cues) {
        const offsets = expected.filter((e) => e.text === cue.text).map((e) => Math.abs(cue.start - e.start));
        expect(offsets.length).toBeGreaterThan(0);
        expect(Math.min(...offsets)).toBeLessThan(0.15);
      }
    } finally {
      await browser.close();
      await player.close();
    }
  });
});
