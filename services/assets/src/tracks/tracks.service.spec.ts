import { ErrorCode } from '@platform/errors';
import { assets } from '@platform/proto';
import { rejection } from '@platform/testing';
import { assetsFixture } from '../testing/assets-fixture';
import { StoredTrack } from './stored-track';

const VIDEO: StoredTrack = { id: 'v1', type: 'video', max_width: 640, max_height: 360 };
const PRIMARY: StoredTrack = { id: 'a1', type: 'audio', primary: true, max_channels: 2 };
const request = (fields: Partial<assets.CreateTrackRequest> = {}): assets.CreateTrackRequest => ({
  asset_id: 'asset1',
  url: 'https://media.example/en.srt',
  type: 'text',
  language_code: 'en',
  ...fields,
});

function readyAsset(tracks: StoredTrack[] = [VIDEO, PRIMARY]) {
  const f = assetsFixture();
  f.stored({ id: 'asset1', status: 'ready', tracks }, ['public']);
  return f;
}

describe('TracksService', () => {
  describe('create (POST …/tracks)', () => {
    it('adds a preparing uploaded text track, named from its language, with its events; the URL is kept but never shown', async () => {
      const f = readyAsset();
      const track = await f.tracks.create(request({ closed_captions: true, passthrough: 'p' }));
      expect(track).toEqual({
        id: expect.stringMatching(/^[0-9A-Za-z]{32}$/),
        type: 'text',
        text_type: 'subtitles',
        text_source: 'uploaded',
        language_code: 'en',
        name: 'English',
        status: 'preparing',
        closed_captions: true,
        passthrough: 'p',
      });
      const row = f.assets.rows.get('asset1')!;
      expect(row.tracks[2]).toEqual({ ...track, source: { url: 'https://media.example/en.srt' } });
      expect(row.updatedAt).toEqual(f.clock.at);
      expect(f.events.map((e) => [e.type, e.object.id])).toEqual([
        ['video.asset.track.created', track.id],
        ['video.asset.updated', 'asset1'],
      ]);
      expect(f.events[0].data).toEqual({ ...track, asset_id: 'asset1' });
      expect((f.events[1].data as { tracks: unknown[] }).tracks).toHaveLength(3);
    });

    it('numbers a name already taken in its group, and keeps text and audio names apart', async () => {
      const f = readyAsset([VIDEO, { ...PRIMARY, name: 'English', language_code: 'en' }]);
      expect((await f.tracks.create(request())).name).toBe('English');
      expect((await f.tracks.create(request())).name).toBe('English 2');
      const audio = await f.tracks.create(request({ type: 'audio', url: 'https://media.example/en.m4a' }));
      expect(audio).toMatchObject({ type: 'audio', name: 'English 2', primary: false, status: 'preparing', language_code: 'en' });
      expect(audio).not.toHaveProperty('text_type');
    });

    it('refuses invalid fields, each named, and a name taken in the group; nothing changes', async () => {
      const f = readyAsset([VIDEO, PRIMARY, { id: 't1', type: 'text', name: 'Subs', status: 'ready' }]);
      const error = await rejection(
        f.tracks.create(request({ type: 'video', url: 'ftp://x/y', language_code: 'english!', name: 'Subs', passthrough: 'x'.repeat(256) })),
      );
      expect(error.code).toBe(ErrorCode.INVALID_PARAMETERS);
      expect(error.messages).toEqual([
        'type: must be one of "text", "audio"',
        'url: must be an http or https URL',
        'language_code: must be a BCP 47 language code such as "en" or "es-MX"',
        'name: "Subs" is already the name of another text track of the asset',
        'passthrough: must be at most 255 characters',
      ]);
      expect((await rejection(f.tracks.create(request({ name: 'Subs' })))).messages).toEqual([
        'name: "Subs" is already the name of another text track of the asset',
      ]);
      expect((await rejection(f.tracks.create(request({ type: 'audio', closed_captions: true, text_type: 'subtitles' })))).messages).toEqual([
        'text_type: only for text tracks',
        'closed_captions: only for text tracks',
      ]);
      expect(f.assets.rows.get('asset1')!.tracks).toHaveLength(3);
      expect(f.events).toEqual([]);
    });

    it('waits for the asset to be ready, and refuses alternate audio for an asset without video', async () => {
      const f = assetsFixture();
      f.stored({ id: 'asset1', status: 'preparing' });
      const early = await rejection(f.tracks.create(request()));
      expect([early.code, early.messages]).toEqual([ErrorCode.PRECONDITION_FAILED, ['The asset is preparing: tracks can be added only once it is ready']]);
      const audioOnly = readyAsset([PRIMARY]);
      const noVideo = await rejection(audioOnly.tracks.create(request({ type: 'audio' })));
      expect(noVideo.messages).toEqual(['type: an alternate audio track goes with a video, and this asset has no video track']);
      expect((await rejection(f.tracks.create(request({ asset_id: 'gone' })))).code).toBe(ErrorCode.NOT_FOUND);
    });
  });

  describe('delete (DELETE …/tracks/{id})', () => {
    it('removes a text track: the asset no longer lists it, its event carries it as deleted, its files go', async () => {
      const f = readyAsset();
      const track = await f.tracks.create(request());
      await f.store.putBuffer(`assets/asset1/hls/text/${track.id}.vtt`, 'WEBVTT\n');
      await f.store.putBuffer(`assets/asset1/hls/text-${track.id}/index.m3u8`, '#EXTM3U\n');
      await f.store.putBuffer('assets/asset1/hls/master.m3u8', '#EXTM3U\n');
      f.events.length = 0;
      await f.tracks.delete({ asset_id: 'asset1', track_id: track.id });
      expect(f.assets.rows.get('asset1')!.tracks.map((t) => t.id)).toEqual(['v1', 'a1']);
      expect(f.events.map((e) => [e.type, e.object.id])).toEqual([
        ['video.asset.track.deleted', track.id],
        ['video.asset.updated', 'asset1'],
      ]);
      expect(f.events[0].data).toEqual({ ...track, status: 'deleted', asset_id: 'asset1' });
      expect([...f.store.objects.keys()]).toEqual(['assets/asset1/hls/master.m3u8']);
    });

    it('refuses video and audio tracks, saying why, and unknown tracks', async () => {
      const f = readyAsset([VIDEO, PRIMARY, { id: 'alt', type: 'audio', primary: false, status: 'ready', name: 'French' }]);
      const video = await rejection(f.tracks.delete({ asset_id: 'asset1', track_id: 'v1' }));
      expect([video.code, video.messages]).toEqual([ErrorCode.INVALID_PARAMETERS, ['track v1: video tracks cannot be deleted; only text tracks can']]);
      expect((await rejection(f.tracks.delete({ asset_id: 'asset1', track_id: 'a1' }))).messages).toEqual([
        "track a1: the primary audio track (the main input's own audio) cannot be deleted; only text tracks can",
      ]);
      expect((await rejection(f.tracks.delete({ asset_id: 'asset1', track_id: 'alt' }))).messages).toEqual([
        'track alt: audio tracks cannot be deleted; only text tracks can',
      ]);
      expect((await rejection(f.tracks.delete({ asset_id: 'asset1', track_id: 'nope' }))).messages).toEqual(['Track not found']);
      expect(f.assets.rows.get('asset1')!.tracks).toHaveLength(3);
      expect(f.events).toEqual([]);
    });
  });

  describe('generateSubtitles (POST …/tracks/{audio}/generate-subtitles)', () => {
    const generate = (fields: Partial<assets.GenerateSubtitlesRequest> = {}): assets.GenerateSubtitlesRequest => ({
      asset_id: 'asset1',
      track_id: 'a1',
      generated_subtitles: [{}],
      ...fields,
    });

    it('adds one preparing generated_vod track per entry, named as Mux names them, hearing the primary audio', async () => {
      const f = readyAsset();
      const { items } = await f.tracks.generateSubtitles(
        generate({ generated_subtitles: [{}, { language_code: 'es', passthrough: 'p' }, { language_code: 'en', name: 'Mine' }] }),
      );
      expect(items.map((t) => [t.name, t.language_code, t.text_source, t.status])).toEqual([
        ['English (generated)', 'en', 'generated_vod', 'preparing'],
        ['Spanish (generated)', 'es', 'generated_vod', 'preparing'],
        ['Mine', 'en', 'generated_vod', 'preparing'],
      ]);
      expect(items[1].passthrough).toBe('p');
      expect(
        f.assets.rows
          .get('asset1')!
          .tracks.slice(2)
          .map((t) => t.source),
      ).toEqual([{ audio: 'primary' }, { audio: 'primary' }, { audio: 'primary' }]);
      expect(f.events.map((e) => e.type)).toEqual([
        'video.asset.track.created',
        'video.asset.track.created',
        'video.asset.track.created',
        'video.asset.updated',
      ]);
    });

    it('is open for 7 days after the asset’s creation, not after', async () => {
      const f = readyAsset();
      f.clock.at = new Date(Date.UTC(2024, 0, 8)); // exactly 7 days
      expect((await f.tracks.generateSubtitles(generate())).items).toHaveLength(1);
      f.clock.at = new Date(Date.UTC(2024, 0, 8, 0, 0, 1));
      const late = await rejection(f.tracks.generateSubtitles(generate()));
      expect([late.code, late.messages]).toEqual([
        ErrorCode.PRECONDITION_FAILED,
        ["Subtitles can be generated only within 7 days of the asset's creation (2024-01-01T00:00:00.000Z); that ended 2024-01-08T00:00:00.000Z"],
      ]);
    });

    it('hears an alternate audio track once it is ready; refuses other tracks, bad entries and unknown tracks', async () => {
      const alt: StoredTrack = { id: 'fr', type: 'audio', primary: false, status: 'preparing', name: 'French', source: { url: 'https://x/fr.m4a' } };
      const f = readyAsset([VIDEO, PRIMARY, alt, { id: 't1', type: 'text', name: 'English (generated)', status: 'ready' }]);
      const preparing = await rejection(f.tracks.generateSubtitles(generate({ track_id: 'fr' })));
      expect([preparing.code, preparing.messages]).toEqual([ErrorCode.PRECONDITION_FAILED, ['Audio track fr is preparing: it can be heard once it is ready']]);
      f.assets.rows.get('asset1')!.tracks[2].status = 'ready';
      const [made] = (await f.tracks.generateSubtitles(generate({ track_id: 'fr' }))).items;
      expect(made.name).toBe('English (generated) 2');
      expect(f.assets.rows.get('asset1')!.tracks.at(-1)!.source).toEqual({ audio: 'fr' });

      const video = await rejection(f.tracks.generateSubtitles(generate({ track_id: 'v1' })));
      expect(video.messages).toEqual(['track v1: subtitles are generated from an audio track, and this is a video track']);
      const bad = await rejection(
        f.tracks.generateSubtitles(generate({ generated_subtitles: [{ language_code: 'xx' }, { name: 'English (generated)' }, { name: 'A' }, { name: 'A' }] })),
      );
      expect(bad.messages).toEqual([
        expect.stringMatching(/^generated_subtitles\[0\]\.language_code: must be one of "en", "es", /),
        'generated_subtitles[1].name: "English (generated)" is already the name of another text track of the asset',
        'generated_subtitles[3].name: "A" is given twice',
      ]);
      expect((await rejection(f.tracks.generateSubtitles(generate({ generated_subtitles: [] })))).messages).toEqual([
        'generated_subtitles: give at least one entry',
      ]);
      expect((await rejection(f.tracks.generateSubtitles(generate({ track_id: 'nope' })))).code).toBe(ErrorCode.NOT_FOUND);
    });
  });
});
