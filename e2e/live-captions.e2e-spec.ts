import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { settledAsset, streamUrl } from './support/assets';
import { captionedVideo } from './support/cea608';
import { sdk } from './support/context';
import { eventually, pushRtmpFile } from './support/encoder';

jest.setTimeout(120_000);

/** Embedded subtitles (spec 2.3): CEA-608 captions in the encoder's video. */
describe('live CEA-608 captions', () => {
  const mux = sdk();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'captions-'));

  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('advertises the embedded_subtitles channel in the live master, and the recording gets a text track with the captions as WebVTT', async () => {
    const video = await captionedVideo(dir, 9);
    const stream = await mux.video.liveStreams.create({
      playback_policies: ['public'],
      new_asset_settings: { playback_policies: ['public'] },
      reconnect_window: 0,
      embedded_subtitles: [{ name: 'English CC', language_code: 'en', language_channel: 'cc1', passthrough: 'house captions' }],
    });
    const encoder = pushRtmpFile(stream.stream_key, video);
    const active = await eventually(
      () => mux.video.liveStreams.retrieve(stream.id),
      (s) => s.active_asset_id !== undefined,
      30_000,
    );

    // live: the captions stay in the video; the master names the channel (hls.js and Safari render it in-band)
    const master = await eventually(
      async () => (await fetch(streamUrl(`${stream.playback_ids![0].id}.m3u8`))).text(),
      (text) => text.includes('#EXT-X-STREAM-INF'),
      30_000,
    );
    expect(master).toContain('#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="English CC",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,INSTREAM-ID="CC1"');
    expect(master).toMatch(/#EXT-X-STREAM-INF:[^\n]*CLOSED-CAPTIONS="cc"/);

    expect(await encoder.exited).toBe(0); // the 9 s file ends: the encoder leaves
    await eventually(
      () => mux.video.liveStreams.retrieve(stream.id),
      (s) => s.status === 'idle',
      30_000,
    );
    const asset = await settledAsset(mux, active.active_asset_id!);
    expect(asset.status).toBe('ready');
    const text = asset.tracks!.filter((t) => t.type === 'text');
    expect(text).toEqual([
      expect.objectContaining({
        type: 'text',
        text_type: 'subtitles',
        text_source: 'embedded',
        closed_captions: true,
        language_code: 'en',
        name: 'English CC',
        passthrough: 'house captions',
        status: 'ready',
      }),
    ]);

    // the extracted captions, where Mux serves a text track: {playback_id}/text/{track_id}.vtt
    const vtt = await fetch(streamUrl(`${asset.playback_ids![0].id}/text/${text[0].id}.vtt`));
    expect(vtt.status).toBe(200);
    expect(vtt.headers.get('content-type')).toContain('text/vtt');
    const body = await vtt.text();
    expect(body.startsWith('WEBVTT')).toBe(true);
    const cues = [...body.matchAll(/(\d\d:\d\d\.\d{3}) --> (\d\d:\d\d\.\d{3})\n(.+)/g)].map((m) => m[3]);
    expect(cues.slice(0, 4)).toEqual(['CAPTION 1', 'CAPTION 2', 'CAPTION 3', 'CAPTION 4']);
  });

  it('makes no text track when the stream asks for no embedded subtitles', async () => {
    const video = await captionedVideo(dir, 9);
    const stream = await mux.video.liveStreams.create({ playback_policies: ['public'], reconnect_window: 0 });
    const encoder = pushRtmpFile(stream.stream_key, video);
    const active = await eventually(
      () => mux.video.liveStreams.retrieve(stream.id),
      (s) => s.active_asset_id !== undefined,
      30_000,
    );
    await encoder.exited;
    await eventually(
      () => mux.video.liveStreams.retrieve(stream.id),
      (s) => s.status === 'idle',
      30_000,
    );
    const asset = await settledAsset(mux, active.active_asset_id!);
    expect(asset.status).toBe('ready');
    expect(asset.tracks!.map((t) => t.type).sort()).toEqual(['audio', 'video']);
  });
});
