import { ErrorCode } from '@platform/errors';
import { assets } from '@platform/proto';
import { assetKeys } from '@platform/storage';
import { rejection } from '@platform/testing';
import { assetsFixture } from '../testing/assets-fixture';
import { checkTimes } from './clip-source';

const clipOf = (source: string, times: Pick<assets.AssetInput, 'start_time' | 'end_time'> = {}, fields: Partial<assets.CreateAssetRequest> = {}) => ({
  input: [{ url: `svc://assets/${source}`, generated_subtitles: [], ...times }],
  playback_policy: [],
  static_renditions: [],
  ...fields,
});

/** A ready on-demand source of 60 s, and a live recording under way with 9 s stored (master → live/index.m3u8). */
async function sources() {
  const f = assetsFixture();
  f.stored({ id: 'vod', status: 'ready', duration: 60, ingestType: 'on_demand_url' }, ['public']);
  f.stored({ id: 'rec', status: 'preparing', ingestType: 'live_rtmp', liveStreamId: 'ls1' });
  await f.store.putBuffer(assetKeys.hls('rec', 'master.m3u8'), '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=900000\nlive/index.m3u8\n');
  await f.store.putBuffer(
    assetKeys.hls('rec', 'live/index.m3u8'),
    '#EXTM3U\n#EXT-X-PLAYLIST-TYPE:EVENT\n#EXTINF:4.000000,\ns0-00000.ts\n#EXTINF:4.000000,\ns0-00001.ts\n#EXT-X-DISCONTINUITY\n#EXTINF:1.000000,\ns1-00000.ts\n',
  );
  return f;
}

describe('clips (AssetsService.create with svc://assets/{id})', () => {
  it('makes an on_demand_clip asset naming its source, with its own playback ids and settings; the end defaults to the source’s duration', async () => {
    const f = await sources();
    const clip = await f.service.create(clipOf('vod', { start_time: 12.5 }, { playback_policy: ['signed'], test: true, max_resolution_tier: '1440p' }));

    expect(clip).toMatchObject({ status: 'preparing', ingest_type: 'on_demand_clip', source_asset_id: 'vod', test: true, max_resolution_tier: '1440p' });
    expect(clip.playback_ids.map((p) => p.policy)).toEqual(['signed']);
    expect(clip.playback_ids[0].id).not.toBe('vod-pb0');
    expect(f.assets.rows.get(clip.id)).toMatchObject({
      inputs: [{ url: 'svc://assets/vod', start_time: 12.5 }],
      sourceAssetId: 'vod',
      clipStartTime: 12.5,
      clipEndTime: 60,
    });
    expect(f.events).toEqual([
      expect.objectContaining({ type: 'video.asset.created', data: expect.objectContaining({ source_asset_id: 'vod', ingest_type: 'on_demand_clip' }) }),
    ]);
  });

  it('clips a live stream’s recording while it is live, within what it has recorded so far', async () => {
    const f = await sources();
    const clip = await f.service.create(clipOf('rec', { start_time: 2 }));
    expect(f.assets.rows.get(clip.id)).toMatchObject({ sourceAssetId: 'rec', clipStartTime: 2, clipEndTime: 9 });
    const mux = await f.service.create({
      ...clipOf('rec', { start_time: 1, end_time: 8.5 }),
      input: [{ url: 'mux://assets/rec', start_time: 1, end_time: 8.5, generated_subtitles: [] }],
    });
    expect(f.assets.rows.get(mux.id)).toMatchObject({ sourceAssetId: 'rec', clipStartTime: 1, clipEndTime: 8.5, ingestType: 'on_demand_clip' });
  });

  it('clips a finished recording (ready) by its recorded duration', async () => {
    const f = await sources();
    f.stored({ id: 'done', status: 'ready', duration: 31.5, ingestType: 'live_srt' });
    const clip = await f.service.create(clipOf('done', { start_time: 30 }));
    expect(f.assets.rows.get(clip.id)).toMatchObject({ clipStartTime: 30, clipEndTime: 31.5 });
  });

  it.each<[string, (f: Awaited<ReturnType<typeof sources>>) => unknown, assets.CreateAssetRequest, string[]]>([
    ['an unknown source', () => undefined, clipOf('nope'), ['input[0].url: there is no asset nope to clip (unknown or deleted)']],
    ['a deleted source', (f) => f.service.delete('vod'), clipOf('vod'), ['input[0].url: there is no asset vod to clip (unknown or deleted)']],
    [
      'an errored source',
      (f) => f.stored({ id: 'bad', status: 'errored', errors: { type: 'invalid_input', messages: ['x'] } }),
      clipOf('bad'),
      ['input[0].url: the asset bad is errored; it has no media to clip'],
    ],
    [
      'a source still preparing',
      (f) => f.stored({ id: 'prep', status: 'preparing' }),
      clipOf('prep'),
      ['input[0].url: the asset prep is still preparing; clip it once it is ready'],
    ],
    [
      'a live recording with nothing stored yet',
      (f) => f.stored({ id: 'fresh', status: 'preparing', ingestType: 'live_rtmp' }),
      clipOf('fresh'),
      ["input[0].url: the live stream's recording fresh holds no media yet"],
    ],
    ['start_time equal to end_time', () => undefined, clipOf('vod', { start_time: 5, end_time: 5 }), ['input[0].end_time: must be after start_time']],
    ['start_time after end_time', () => undefined, clipOf('vod', { start_time: 6, end_time: 5 }), ['input[0].end_time: must be after start_time']],
    ['start_time past the source', () => undefined, clipOf('vod', { start_time: 60 }), ["input[0].start_time: must be less than the source's duration (60 s)"]],
    [
      'end_time past the source',
      () => undefined,
      clipOf('vod', { start_time: 1, end_time: 61 }),
      ["input[0].end_time: must be at most the source's duration (60 s)"],
    ],
    [
      'end_time past what a live recording holds',
      () => undefined,
      clipOf('rec', { end_time: 9.5 }),
      ['input[0].end_time: must be at most what the live recording holds so far (9 s)'],
    ],
    [
      'a clip too short for a frame',
      () => undefined,
      clipOf('vod', { start_time: 59.8 }),
      ['input[0].end_time: a clip lasts at least 0.5 s (end_time 60 s is 0.2 s after start_time)'],
    ],
    ['negative times', () => undefined, clipOf('vod', { start_time: -1 }), ['input[0].start_time: must be a number of seconds, 0 or more']],
    [
      'a clip url that is not the first input',
      () => undefined,
      {
        input: [
          { url: 'https://media.example/a.mp4', generated_subtitles: [] },
          { url: 'svc://assets/vod', generated_subtitles: [] },
        ],
        playback_policy: [],
        static_renditions: [],
      },
      ['input[1].url: a clip (svc://assets/{asset_id}) must be the first input'],
    ],
  ])('refuses %s with INVALID_PARAMETERS naming the field, writing nothing', async (_name, arrange, request, messages) => {
    const f = await sources();
    await arrange(f);
    const before = new Map(f.assets.rows);
    const eventsBefore = f.events.length;
    const error = await rejection(f.service.create(request));
    expect([error.code, error.messages]).toEqual([ErrorCode.INVALID_PARAMETERS, messages]);
    expect(f.assets.rows).toEqual(before);
    expect(f.events.length).toBe(eventsBefore);
  });
});

describe('checkTimes', () => {
  it('defaults the end to the duration and allows the end at the duration, rounded durations included', () => {
    expect(checkTimes(0, undefined, 10.021, false)).toEqual({ startTime: 0, endTime: 10.021 });
    expect(checkTimes(2, 10.0215, 10.021, false)).toEqual({ startTime: 2, endTime: 10.021 });
    expect(checkTimes(9.5, 10, 10, true)).toEqual({ startTime: 9.5, endTime: 10 });
  });

  it('names every time outside the source at once', () => {
    expect(() => checkTimes(12, 13, 10, false)).toThrow(
      expect.objectContaining({
        messages: ["input[0].start_time: must be less than the source's duration (10 s)", "input[0].end_time: must be at most the source's duration (10 s)"],
      }),
    );
  });
});
