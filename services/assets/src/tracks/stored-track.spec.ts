import { assets } from '@platform/proto';
import { assetsFixture } from '../testing/assets-fixture';
import { inputTracks, namedPrimaryAudio, playbackRenditions, StoredTrack } from './stored-track';

const MAIN = 'https://media.example/in.mp4';

describe('tracks of a new asset’s inputs', () => {
  it('are its text and audio inputs, then the main input’s generated subtitles, all preparing', () => {
    const tracks = inputTracks(
      [
        { url: MAIN, generated_subtitles: [{}, { language_code: 'fr', name: 'Sous-titres' }] },
        { url: 'https://media.example/en.vtt', type: 'text', text_type: 'subtitles', language_code: 'en', name: 'English', closed_captions: true },
        { url: 'https://media.example/fr.m4a', type: 'audio', language_code: 'fr', name: 'French' },
        { url: 'https://media.example/logo.png', overlay_settings: {} },
      ],
      ['main', 'text', 'audio', 'overlay'],
    );
    expect(tracks.map(({ id: _id, ...t }) => t)).toEqual([
      {
        type: 'text',
        text_type: 'subtitles',
        text_source: 'uploaded',
        language_code: 'en',
        name: 'English',
        closed_captions: true,
        status: 'preparing',
        source: { url: 'https://media.example/en.vtt' },
      },
      { type: 'audio', primary: false, language_code: 'fr', name: 'French', status: 'preparing', source: { url: 'https://media.example/fr.m4a' } },
      {
        type: 'text',
        text_type: 'subtitles',
        text_source: 'generated_vod',
        language_code: 'en',
        name: 'English (generated)',
        status: 'preparing',
        source: { audio: 'primary' },
      },
      {
        type: 'text',
        text_type: 'subtitles',
        text_source: 'generated_vod',
        language_code: 'fr',
        name: 'Sous-titres',
        status: 'preparing',
        source: { audio: 'primary' },
      },
    ]);
  });

  it('are created with the asset, each with video.asset.track.created; the asset shows them preparing', async () => {
    const f = assetsFixture();
    const created = await f.service.create({
      input: [
        { url: MAIN, language_code: 'en', generated_subtitles: [{ language_code: 'en' }] },
        { url: 'https://media.example/en.srt', type: 'text', text_type: 'subtitles', language_code: 'en', generated_subtitles: [] },
        { url: 'https://media.example/en2.m4a', type: 'audio', language_code: 'en', generated_subtitles: [] },
      ],
      playback_policy: ['public'],
      static_renditions: [],
    });
    expect(created.tracks.map((t) => [t.type, t.name, t.status])).toEqual([
      ['text', 'English', 'preparing'],
      // the main input's language names the primary audio ("English"), so the alternate is numbered
      ['audio', 'English 2', 'preparing'],
      ['text', 'English (generated)', 'preparing'],
    ]);
    expect(f.events.map((e) => e.type)).toEqual(['video.asset.created', 'video.asset.track.created', 'video.asset.track.created', 'video.asset.track.created']);
    expect(f.assets.rows.get(created.id)!.inputs[0].name).toBe('English');
  });

  it('keep their place and ids when the probe is recorded (again), after the tracks it found; the primary audio is named by the main input', async () => {
    const f = assetsFixture();
    const own: StoredTrack = { id: 'own', type: 'text', name: 'English', status: 'preparing', source: { url: 'https://x/en.srt' } };
    const { asset } = f.stored({ inputs: [{ url: MAIN, name: 'Original', language_code: 'de' }], tracks: [own] });
    const probe: assets.RecordProbeRequest = {
      asset_id: asset.id,
      tracks: [
        { id: '', type: 'video', max_width: 640 },
        { id: '', type: 'audio', primary: true, max_channels: 2 },
      ],
      non_standard_input_reasons: {},
      input_info: [],
      recording_times: [],
    };
    const first = await f.processing.recordProbe(probe);
    expect(first.tracks.map((t) => [t.type, t.name, t.language_code])).toEqual([
      ['video', undefined, undefined],
      ['audio', 'Original', 'de'],
      ['text', 'English', undefined],
    ]);
    expect(first.tracks[2].id).toBe('own');
    const again = await f.processing.recordProbe(probe);
    expect(again.tracks).toEqual(first.tracks);
    expect(f.events.filter((e) => e.type === 'video.asset.track.created')).toHaveLength(2);
  });
});

describe('namedPrimaryAudio', () => {
  it('takes the main input’s name, else its language’s; other tracks are left as they are', () => {
    const audio: assets.Track = { id: 'a', type: 'audio', primary: true };
    expect(namedPrimaryAudio(audio, { url: MAIN, language_code: 'es' })).toEqual({ ...audio, name: 'Spanish', language_code: 'es' });
    expect(namedPrimaryAudio(audio, { url: MAIN })).toEqual(audio);
    expect(namedPrimaryAudio({ id: 'v', type: 'video' }, { url: MAIN, name: 'x' })).toEqual({ id: 'v', type: 'video' });
  });
});

describe('playbackRenditions', () => {
  const primary: StoredTrack = { id: 'a1', type: 'audio', primary: true, name: 'English', language_code: 'en' };
  const text = (id: string, status: string, source = { url: 'u' }): StoredTrack => ({ id, type: 'text', status, source });
  const alt = (status: string): StoredTrack => ({ id: 'fr', type: 'audio', primary: false, status, source: { url: 'u' } });

  it('lists ready text tracks made on request, and the primary audio with ready alternates, without their sources', () => {
    expect(playbackRenditions([{ id: 'v1', type: 'video' }, primary, text('t1', 'ready'), text('t2', 'preparing'), alt('ready')])).toEqual([
      primary,
      { id: 't1', type: 'text', status: 'ready' },
      { id: 'fr', type: 'audio', primary: false, status: 'ready' },
    ]);
  });

  it('leaves the primary audio out without a ready alternate, and a live recording’s own text tracks out', () => {
    const live: StoredTrack = { id: 'live', type: 'text', status: 'ready', text_source: 'generated_live' };
    expect(playbackRenditions([primary, alt('errored'), live, text('t1', 'errored')])).toEqual([]);
  });
});
