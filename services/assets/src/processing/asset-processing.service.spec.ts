import { ErrorCode } from '@platform/errors';
import { assets } from '@platform/proto';
import { rejection } from '@platform/testing';
import { assetsFixture } from '../testing/assets-fixture';

const probe = (assetId: string, fields: Partial<assets.RecordProbeRequest> = {}): assets.RecordProbeRequest => ({
  asset_id: assetId,
  duration: 6.006,
  max_stored_resolution: 'HD',
  resolution_tier: '720p',
  max_stored_frame_rate: 30,
  aspect_ratio: '16:9',
  tracks: [
    { id: '', type: 'video', max_width: 1280, max_height: 720, max_frame_rate: 30, duration: 6.006 },
    { id: '', type: 'audio', max_channels: 2, primary: true, duration: 6.006 },
  ],
  non_standard_input_reasons: {},
  input_info: [
    {
      settings: { url: 'https://media.example/in.mp4', generated_subtitles: [] },
      file: { container_format: 'mov,mp4,m4a,3gp,3g2,mj2', tracks: [{ type: 'video', width: 1280 }] },
    },
  ],
  recording_times: [],
  ...fields,
});

describe('AssetProcessingService', () => {
  describe('getIngestSpec', () => {
    it('tells the transcoder what to ingest and how', async () => {
      const f = assetsFixture();
      const { asset } = f.stored({ test: true, maxResolutionTier: '1440p', encodingTier: 'baseline', videoQuality: 'basic' });
      expect(await f.processing.getIngestSpec(asset.id)).toEqual({
        asset_id: asset.id,
        status: 'preparing',
        input: [{ url: 'https://media.example/in.mp4', generated_subtitles: [] }],
        test: true,
        max_resolution_tier: '1440p',
        encoding_tier: 'baseline',
        video_quality: 'basic',
        normalize_audio: false,
      });
    });

    it('gives a clip’s cut: its source and the times resolved at create', async () => {
      const f = assetsFixture();
      const { asset } = f.stored({
        ingestType: 'on_demand_clip',
        inputs: [{ url: 'svc://assets/src1', start_time: 2.5 }],
        sourceAssetId: 'src1',
        clipStartTime: 2.5,
        clipEndTime: 9.75,
      });
      expect(await f.processing.getIngestSpec(asset.id)).toMatchObject({
        input: [{ url: 'svc://assets/src1', start_time: 2.5, generated_subtitles: [] }],
        clip: { source_asset_id: 'src1', start_time: 2.5, end_time: 9.75 },
      });
    });

    it('is NOT_FOUND once the asset is deleted, so the job is cancelled', async () => {
      const f = assetsFixture();
      const { asset } = f.stored();
      await f.service.delete(asset.id);
      expect((await rejection(f.processing.getIngestSpec(asset.id))).code).toBe(ErrorCode.NOT_FOUND);
    });
  });

  describe('recordProbe', () => {
    it('stores the probe’s fields, gives the tracks ids and emits video.asset.track.created for each; the asset stays preparing', async () => {
      const f = assetsFixture();
      const { asset } = f.stored({}, ['public']);
      const reply = await f.processing.recordProbe(probe(asset.id));

      expect(reply).toMatchObject({
        id: asset.id,
        status: 'preparing',
        duration: 6.006,
        max_stored_resolution: 'HD',
        resolution_tier: '720p',
        max_stored_frame_rate: 30,
        aspect_ratio: '16:9',
      });
      const [video, audio] = reply.tracks;
      expect(video).toEqual({
        id: expect.stringMatching(/^[0-9A-Za-z]{32}$/),
        type: 'video',
        max_width: 1280,
        max_height: 720,
        max_frame_rate: 30,
        duration: 6.006,
      });
      expect(audio).toEqual({ id: expect.stringMatching(/^[0-9A-Za-z]{32}$/), type: 'audio', max_channels: 2, primary: true, duration: 6.006 });
      expect(reply.non_standard_input_reasons).toEqual({});
      expect(f.assets.rows.get(asset.id)).toMatchObject({ tracks: reply.tracks, nonStandardInputReasons: null, updatedAt: null });
      expect(f.events).toEqual([
        { type: 'video.asset.track.created', object: { type: 'track', id: video.id }, data: { ...video, asset_id: asset.id } },
        { type: 'video.asset.track.created', object: { type: 'track', id: audio.id }, data: { ...audio, asset_id: asset.id } },
      ]);
    });

    it('emits video.asset.non_standard_input_detected with the asset when there are reasons', async () => {
      const f = assetsFixture();
      const { asset } = f.stored();
      const reasons = { video_codec: 'mpeg4', audio_codec: 'mp3' };
      const reply = await f.processing.recordProbe(probe(asset.id, { non_standard_input_reasons: reasons }));
      expect(reply.non_standard_input_reasons).toEqual(reasons);
      const detected = f.events.filter((e) => e.type === 'video.asset.non_standard_input_detected');
      expect(detected).toEqual([
        {
          type: 'video.asset.non_standard_input_detected',
          object: { type: 'asset', id: asset.id },
          data: expect.objectContaining({
            id: asset.id,
            status: 'preparing',
            non_standard_input_reasons: reasons,
            progress: { state: 'transcoding', progress: 0 },
            tracks: reply.tracks,
          }),
        },
      ]);
    });

    it('is idempotent: a redone job records the same probe with the same track ids and no new events', async () => {
      const f = assetsFixture();
      const { asset } = f.stored();
      const first = await f.processing.recordProbe(probe(asset.id, { non_standard_input_reasons: { video_codec: 'hevc' } }));
      const count = f.events.length;
      const again = await f.processing.recordProbe(probe(asset.id, { non_standard_input_reasons: { video_codec: 'hevc' } }));
      expect(again).toEqual(first);
      expect(f.events).toHaveLength(count);
    });

    it('may be recorded again on a ready asset (a job redone after MarkReady)', async () => {
      const f = assetsFixture();
      const { asset } = f.stored({ status: 'ready' });
      expect((await f.processing.recordProbe(probe(asset.id))).status).toBe('ready');
    });

    it('refuses an errored asset (PRECONDITION_FAILED) and an unknown one (NOT_FOUND)', async () => {
      const f = assetsFixture();
      const { asset } = f.stored({ status: 'errored', errors: { type: 'invalid_input', messages: ['x'] } });
      expect((await rejection(f.processing.recordProbe(probe(asset.id)))).code).toBe(ErrorCode.PRECONDITION_FAILED);
      expect((await rejection(f.processing.recordProbe(probe('nope')))).code).toBe(ErrorCode.NOT_FOUND);
      expect(f.events).toEqual([]);
    });

    it('refuses values outside spec 2.1’s vocabularies, naming each', async () => {
      const f = assetsFixture();
      const { asset } = f.stored();
      const error = await rejection(
        f.processing.recordProbe(
          probe(asset.id, {
            duration: -1,
            resolution_tier: '480p',
            max_stored_resolution: '4K',
            tracks: [{ id: '', type: 'subtitle' }],
            non_standard_input_reasons: { video_colour: 'pink' },
          }),
        ),
      );
      expect(error.code).toBe(ErrorCode.INVALID_PARAMETERS);
      expect(error.messages).toEqual([
        'duration: must be a number of seconds, at least 0',
        'resolution_tier: must be one of audio-only, 720p, 1080p, 1440p, 2160p',
        'max_stored_resolution: must be one of Audio only, SD, HD, FHD, UHD',
        'tracks[0].type: must be one of video, audio, text',
        'non_standard_input_reasons.video_colour: is not a reason of spec 2.1',
      ]);
    });
  });

  describe('markReady', () => {
    it('makes a preparing asset ready, emitting video.asset.ready and video.asset.track.ready per track', async () => {
      const f = assetsFixture();
      const { asset } = f.stored({ passthrough: 'pt' }, ['public']);
      const probed = await f.processing.recordProbe(probe(asset.id));
      f.events.length = 0;

      const ready = await f.processing.markReady({ asset_id: asset.id });
      expect(ready).toMatchObject({ status: 'ready', tracks: probed.tracks, playback_ids: [{ id: `${asset.id}-pb0`, policy: 'public' }] });
      expect(f.events.map((e) => [e.type, e.object])).toEqual([
        ['video.asset.ready', { type: 'asset', id: asset.id }],
        ['video.asset.track.ready', { type: 'track', id: probed.tracks[0].id }],
        ['video.asset.track.ready', { type: 'track', id: probed.tracks[1].id }],
      ]);
      expect(f.events[0].data).toMatchObject({
        id: asset.id,
        status: 'ready',
        passthrough: 'pt',
        progress: { state: 'completed', progress: 100 },
        duration: 6.006,
      });
      expect(f.events[1].data).toEqual({ ...probed.tracks[0], asset_id: asset.id });
    });

    it('changes nothing when repeated', async () => {
      const f = assetsFixture();
      const { asset } = f.stored();
      const first = await f.processing.markReady({ asset_id: asset.id });
      const count = f.events.length;
      expect(await f.processing.markReady({ asset_id: asset.id })).toEqual(first);
      expect(f.events).toHaveLength(count);
    });

    it('is NOT_FOUND for a deleted asset and PRECONDITION_FAILED for an errored one', async () => {
      const f = assetsFixture();
      const { asset } = f.stored({ status: 'errored', errors: { type: 'invalid_input', messages: [] } });
      expect((await rejection(f.processing.markReady({ asset_id: asset.id }))).code).toBe(ErrorCode.PRECONDITION_FAILED);
      expect(f.assets.rows.get(asset.id)!.status).toBe('errored');
      expect((await rejection(f.processing.markReady({ asset_id: 'gone' }))).code).toBe(ErrorCode.NOT_FOUND);
      expect(f.events).toEqual([]);
    });
  });

  describe('generated subtitle tracks (made after the asset)', () => {
    const generated = (status: string): assets.Track => ({
      id: '',
      type: 'text',
      text_type: 'subtitles',
      text_source: 'generated_live_final',
      language_code: 'en',
      name: 'English (generated)',
      status,
    });

    it('markReady leaves a preparing track out of video.asset.track.ready; setTrackStatus readies it with its own event', async () => {
      const f = assetsFixture();
      const { asset } = f.stored();
      const probed = await f.processing.recordProbe(probe(asset.id, { tracks: [...probe(asset.id).tracks, generated('preparing')] }));
      const final = probed.tracks[2];
      f.events.length = 0;
      await f.processing.markReady({ asset_id: asset.id });
      expect(f.events.map((e) => [e.type, e.object.id])).toEqual([
        ['video.asset.ready', asset.id],
        ['video.asset.track.ready', probed.tracks[0].id],
        ['video.asset.track.ready', probed.tracks[1].id],
      ]);

      f.events.length = 0;
      const after = await f.trackProcessing.setTrackStatus({ asset_id: asset.id, track_id: final.id, status: 'ready' });
      expect(after.tracks[2]).toEqual({ ...final, status: 'ready' });
      expect(f.events).toEqual([
        { type: 'video.asset.track.ready', object: { type: 'track', id: final.id }, data: { ...final, status: 'ready', asset_id: asset.id } },
      ]);
      expect(await f.trackProcessing.setTrackStatus({ asset_id: asset.id, track_id: final.id, status: 'ready' })).toEqual(after);
      expect(f.events).toHaveLength(1);
    });

    it('setTrackStatus errored emits video.asset.track.errored; refuses other statuses and unknown tracks or assets', async () => {
      const f = assetsFixture();
      const { asset } = f.stored();
      const probed = await f.processing.recordProbe(probe(asset.id, { tracks: [generated('preparing')] }));
      f.events.length = 0;
      const errored = await f.trackProcessing.setTrackStatus({ asset_id: asset.id, track_id: probed.tracks[0].id, status: 'errored' });
      expect(errored.tracks[0].status).toBe('errored');
      expect(f.events.map((e) => e.type)).toEqual(['video.asset.track.errored']);

      const bad = await rejection(f.trackProcessing.setTrackStatus({ asset_id: asset.id, track_id: probed.tracks[0].id, status: 'preparing' }));
      expect([bad.code, bad.messages]).toEqual([ErrorCode.INVALID_PARAMETERS, ['status: must be ready or errored']]);
      expect((await rejection(f.trackProcessing.setTrackStatus({ asset_id: asset.id, track_id: 'nope', status: 'ready' }))).code).toBe(ErrorCode.NOT_FOUND);
      expect((await rejection(f.trackProcessing.setTrackStatus({ asset_id: 'gone', track_id: 'nope', status: 'ready' }))).code).toBe(ErrorCode.NOT_FOUND);
      expect(f.events).toHaveLength(1);
    });
  });

  describe('markErrored', () => {
    it('makes a preparing asset errored with its errors, emitting video.asset.errored', async () => {
      const f = assetsFixture();
      const { asset } = f.stored();
      const errors = { type: 'invalid_input', messages: ['The input could not be downloaded: HTTP 404'] };
      const errored = await f.processing.markErrored({ asset_id: asset.id, errors });
      expect(errored).toMatchObject({ status: 'errored', errors });
      expect(f.events).toEqual([
        {
          type: 'video.asset.errored',
          object: { type: 'asset', id: asset.id },
          data: expect.objectContaining({ id: asset.id, status: 'errored', errors, progress: { state: 'errored', progress: -1 } }),
        },
      ]);
    });

    it('changes nothing when repeated, even with other errors', async () => {
      const f = assetsFixture();
      const { asset } = f.stored();
      const first = await f.processing.markErrored({ asset_id: asset.id, errors: { type: 'invalid_input', messages: ['a'] } });
      expect(await f.processing.markErrored({ asset_id: asset.id, errors: { type: 'other', messages: ['b'] } })).toEqual(first);
      expect(f.events).toHaveLength(1);
    });

    it('refuses a ready asset, an unknown one and errors without a type', async () => {
      const f = assetsFixture();
      const { asset } = f.stored({ status: 'ready' });
      const errors = { type: 'invalid_input', messages: [] };
      expect((await rejection(f.processing.markErrored({ asset_id: asset.id, errors }))).code).toBe(ErrorCode.PRECONDITION_FAILED);
      expect((await rejection(f.processing.markErrored({ asset_id: 'gone', errors }))).code).toBe(ErrorCode.NOT_FOUND);
      const noType = await rejection(f.processing.markErrored({ asset_id: asset.id, errors: { type: '', messages: [] } }));
      expect([noType.code, noType.messages]).toEqual([ErrorCode.INVALID_PARAMETERS, ['errors.type: is required']]);
      expect(f.assets.rows.get(asset.id)!.status).toBe('ready');
    });
  });

  describe('reportWarning', () => {
    const warning = { type: 'ladder_failed', message: 'The encoded renditions could not be made; the asset plays from its source rendition.' };

    it('emits video.asset.warning (the asset body, as GET shows it, with the warning) and leaves the asset as it is', async () => {
      const f = assetsFixture();
      const { asset } = f.stored({ status: 'ready', passthrough: 'mine', uploadId: 'up1' }, ['public']);
      const reply = await f.processing.reportWarning({ asset_id: asset.id, warning });
      expect(reply).toMatchObject({ id: asset.id, status: 'ready' });
      expect(f.assets.rows.get(asset.id)!.status).toBe('ready');
      expect(f.events).toEqual([
        {
          type: 'video.asset.warning',
          object: { type: 'asset', id: asset.id },
          data: expect.objectContaining({
            id: asset.id,
            status: 'ready',
            passthrough: 'mine',
            upload_id: 'up1',
            playback_ids: [{ id: 'asset1-pb0', policy: 'public' }],
            warning,
          }),
        },
      ]);
    });

    it('sends a warning type once per asset (a redone job reports it again), another type again', async () => {
      const f = assetsFixture();
      const { asset } = f.stored({ status: 'ready' });
      await f.processing.reportWarning({ asset_id: asset.id, warning });
      await f.processing.reportWarning({ asset_id: asset.id, warning: { ...warning, message: 'again' } });
      await f.processing.reportWarning({ asset_id: asset.id, warning: { type: 'other_thing', message: 'x' } });
      expect(f.events.map((e) => (e.data as { warning: { type: string } }).warning.type)).toEqual(['ladder_failed', 'other_thing']);
    });

    it('refuses an unknown asset and a malformed warning', async () => {
      const f = assetsFixture();
      const { asset } = f.stored({ status: 'ready' });
      expect((await rejection(f.processing.reportWarning({ asset_id: 'gone', warning }))).code).toBe(ErrorCode.NOT_FOUND);
      const bad = await rejection(f.processing.reportWarning({ asset_id: asset.id, warning: { type: 'Not A Type', message: '' } }));
      expect([bad.code, bad.messages]).toEqual([
        ErrorCode.INVALID_PARAMETERS,
        ['warning.type: must be a snake_case word of at most 64 characters', 'warning.message: must be 1 to 1000 characters'],
      ]);
      expect(f.events).toEqual([]);
    });
  });
});
