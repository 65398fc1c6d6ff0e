import { EVENT_TYPES, isKnownEventType } from '@platform/events';
import { assetsFixture } from '../testing/assets-fixture';
import { ASSET_EVENTS, TRACK_EVENTS } from './asset-events';

describe('asset event types', () => {
  it('are all in the platform’s catalogue, which the webhook dispatcher subscribes to', () => {
    const ours: string[] = [...Object.values(ASSET_EVENTS), ...Object.values(TRACK_EVENTS)];
    expect(EVENT_TYPES.filter((t) => ours.includes(t)).sort()).toEqual(ours.sort());
  });

  it('every event a whole asset life emits is a known type', async () => {
    const f = assetsFixture();
    const created = await f.service.create({
      input: [{ url: 'https://media.example/a.mkv', generated_subtitles: [] }],
      static_renditions: [],
      playback_policy: ['public'],
    });
    await f.processing.recordProbe({
      asset_id: created.id,
      tracks: [
        { id: '', type: 'video' },
        { id: '', type: 'text', text_source: 'generated_live_final', status: 'preparing' },
      ],
      non_standard_input_reasons: { video_codec: 'hevc' },
      input_info: [],
      recording_times: [],
    });
    const ready = await f.processing.markReady({ asset_id: created.id });
    await f.trackProcessing.setTrackStatus({ asset_id: created.id, track_id: ready.tracks[1].id, status: 'errored' });
    const subtitles = await f.tracks.create({ asset_id: created.id, url: 'https://media.example/en.srt', type: 'text', language_code: 'en' });
    await f.tracks.delete({ asset_id: created.id, track_id: subtitles.id });
    const added = await f.playback.create({ asset_id: created.id, policy: 'signed' });
    await f.playback.delete({ asset_id: created.id, playback_id: added.id });
    await f.processing.reportWarning({ asset_id: created.id, warning: { type: 'ladder_failed', message: 'x' } });
    await f.service.update({ id: created.id, passthrough: 'x' });
    await f.service.delete(created.id);
    const errored = await f.service.create({
      input: [{ url: 'https://media.example/b.mp4', generated_subtitles: [] }],
      static_renditions: [],
      playback_policy: [],
    });
    await f.processing.markErrored({ asset_id: errored.id, errors: { type: 'invalid_input', messages: [] } });

    const types = f.events.map((e) => e.type);
    expect(new Set(types)).toEqual(new Set([...Object.values(ASSET_EVENTS), ...Object.values(TRACK_EVENTS)]));
    expect(types.filter((t) => !isKnownEventType(t))).toEqual([]);
  });
});
