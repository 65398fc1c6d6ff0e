import { settledAsset, streamUrl } from './support/assets';
import { sdk } from './support/context';
import { ffprobe } from './support/media';
import { Encoder, EncoderOptions, endsWithin, eventually, pushSrt } from './support/encoder';
import { segmentsListed } from './support/live-playlists';

jest.setTimeout(120_000);

/** SRT ingest (spec 2.3 `srt_passphrase`, 4.3): `srt://host:SRT_PORT?streamid={stream_key}&passphrase={srt_passphrase}`. */
describe('SRT ingest', () => {
  const mux = sdk();
  const encoders: Encoder[] = [];
  const push = (key: string, passphrase: string | undefined, options: EncoderOptions = {}) => {
    const encoder = pushSrt(key, passphrase, options);
    encoders.push(encoder);
    return encoder;
  };
  const statusOf = (id: string) => mux.video.liveStreams.retrieve(id);

  afterEach(async () => {
    await Promise.all(encoders.splice(0).map((e) => e.stop()));
  });

  it('records an SRT session with the stream’s passphrase: active over srt, a growing live playlist, then a ready live_srt asset', async () => {
    const stream = await mux.video.liveStreams.create({
      playback_policies: ['public'],
      new_asset_settings: { playback_policies: ['public'] },
      latency_mode: 'low',
    });
    expect(stream.srt_passphrase).toEqual(expect.any(String));
    const playbackId = stream.playback_ids![0].id;
    const encoder = push(stream.stream_key, stream.srt_passphrase);
    const pushedAt = Date.now();
    const active = await eventually(
      () => statusOf(stream.id),
      (s) => s.status === 'active' && s.active_asset_id !== undefined,
      30_000,
    );
    expect(active).toMatchObject({ status: 'active', active_ingest_protocol: 'srt' });
    const assetId = active.active_asset_id!;
    expect(await mux.video.assets.retrieve(assetId)).toMatchObject({ status: 'preparing', is_live: true, live_stream_id: stream.id, ingest_type: 'live_srt' });

    const segmentsNow = () => segmentsListed(playbackId);
    const first = await eventually(segmentsNow, (n) => n >= 1, 30_000);
    expect(await eventually(segmentsNow, (n) => n >= first + 2, 30_000)).toBeGreaterThanOrEqual(first + 2);
    const live = await ffprobe(streamUrl(`${playbackId}.m3u8`));
    expect(live.streams.map((s) => s.codec_name).sort()).toEqual(['aac', 'h264']);

    await new Promise((r) => setTimeout(r, Math.max(0, 8000 - (Date.now() - pushedAt))));
    await encoder.stop();
    const pushedSeconds = (Date.now() - pushedAt) / 1000;
    const idle = await eventually(
      () => statusOf(stream.id),
      (s) => s.status === 'idle',
      30_000,
    );
    expect(idle.active_ingest_protocol).toBeUndefined();
    const asset = await settledAsset(mux, assetId);
    expect(asset).toMatchObject({ status: 'ready', is_live: false, ingest_type: 'live_srt', live_stream_id: stream.id });
    expect(asset.duration!).toBeGreaterThan(pushedSeconds - 5);
    expect(asset.duration!).toBeLessThanOrEqual(pushedSeconds + 1);
  });

  it('takes an HEVC encoder over SRT: its picture is transcoded to H.264 on the way in, and plays', async () => {
    const stream = await mux.video.liveStreams.create({ playback_policies: ['public'], latency_mode: 'reduced', reconnect_window: 0 });
    const playbackId = stream.playback_ids![0].id;
    push(stream.stream_key, stream.srt_passphrase, { codec: 'hevc' });
    await eventually(
      () => statusOf(stream.id),
      (s) => s.status === 'active',
      30_000,
    );
    await eventually(
      () => segmentsListed(playbackId),
      (n) => n >= 2,
      60_000,
    );
    const live = await ffprobe(streamUrl(`${playbackId}.m3u8`));
    expect(live.streams.map((s) => [s.codec_type, s.codec_name, s.width]).sort()).toEqual([
      ['audio', 'aac', undefined],
      ['video', 'h264', 640],
    ]);
  });

  it('refuses a wrong passphrase, a missing one, an unknown key and a disabled stream: the encoder gives up, nothing turns active', async () => {
    const stream = await mux.video.liveStreams.create({});
    expect(await endsWithin(push(stream.stream_key, 'not-the-passphrase-of-it'), 15_000)).toBe(true);
    expect(await endsWithin(push(stream.stream_key, undefined), 15_000)).toBe(true);
    expect(await endsWithin(push('not-a-key-of-any-stream', stream.srt_passphrase), 15_000)).toBe(true);
    expect((await statusOf(stream.id)).status).toBe('idle');

    await mux.video.liveStreams.disable(stream.id);
    expect(await endsWithin(push(stream.stream_key, stream.srt_passphrase), 15_000)).toBe(true);
    expect((await statusOf(stream.id)).status).toBe('disabled');
  });

  it('drops the SRT encoder when the key is reset, and takes it back with the new key', async () => {
    const stream = await mux.video.liveStreams.create({ reconnect_window: 0 });
    const first = push(stream.stream_key, stream.srt_passphrase);
    await eventually(
      () => statusOf(stream.id),
      (s) => s.status === 'active',
      30_000,
    );
    const reset = await mux.video.liveStreams.resetStreamKey(stream.id);
    expect(await endsWithin(first, 20_000)).toBe(true);
    expect(
      (
        await eventually(
          () => statusOf(stream.id),
          (s) => s.status === 'idle',
        )
      ).status,
    ).toBe('idle');

    push(reset.stream_key, stream.srt_passphrase);
    expect(
      await eventually(
        () => statusOf(stream.id),
        (s) => s.status === 'active',
        30_000,
      ),
    ).toMatchObject({ status: 'active', active_ingest_protocol: 'srt' });
  });
});
