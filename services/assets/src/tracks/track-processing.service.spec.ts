import { ErrorCode } from '@platform/errors';
import { assets } from '@platform/proto';
import { rejection } from '@platform/testing';
import { assetsFixture } from '../testing/assets-fixture';
import { StoredTrack } from './stored-track';

const VIDEO: StoredTrack = { id: 'v1', type: 'video' };
const PRIMARY: StoredTrack = { id: 'a1', type: 'audio', primary: true, max_channels: 2 };
const TEXT: StoredTrack = {
  id: 't1',
  type: 'text',
  text_type: 'subtitles',
  text_source: 'uploaded',
  language_code: 'en',
  name: 'English',
  status: 'preparing',
  source: { url: 'https://media.example/en.srt' },
};
const ALT: StoredTrack = {
  id: 'fr',
  type: 'audio',
  primary: false,
  language_code: 'fr',
  name: 'French',
  status: 'preparing',
  source: { url: 'https://media.example/fr.m4a' },
};
const GENERATED: StoredTrack = {
  id: 'g1',
  type: 'text',
  text_type: 'subtitles',
  text_source: 'generated_vod',
  language_code: 'en',
  name: 'English (generated)',
  status: 'preparing',
  source: { audio: 'primary' },
};

function fixture(tracks: StoredTrack[] = [VIDEO, PRIMARY, TEXT, ALT, GENERATED]) {
  const f = assetsFixture();
  f.stored({ id: 'asset1', status: 'ready', duration: 6.02, tracks }, ['public']);
  return f;
}

describe('TrackProcessingService', () => {
  describe('getTrackSpec', () => {
    it('tells a task what to make: the track, its file or the audio it hears, and the asset', async () => {
      const f = fixture();
      const { source: _text, ...text } = TEXT;
      expect(await f.trackProcessing.getTrackSpec({ asset_id: 'asset1', track_id: 't1' })).toEqual({
        asset_id: 'asset1',
        asset_status: 'ready',
        asset_duration: 6.02,
        track: text,
        url: 'https://media.example/en.srt',
        audio_primary: false,
      });
      expect(await f.trackProcessing.getTrackSpec({ asset_id: 'asset1', track_id: 'g1' })).toMatchObject({ audio_track_id: 'a1', audio_primary: true });
      expect(await f.trackProcessing.getTrackSpec({ asset_id: 'asset1', track_id: 'g1' })).not.toHaveProperty('url');
    });

    it('names no audio when the asset has none to hear, and is NOT_FOUND once the track or asset is gone', async () => {
      const f = fixture([VIDEO, GENERATED]);
      expect(await f.trackProcessing.getTrackSpec({ asset_id: 'asset1', track_id: 'g1' })).not.toHaveProperty('audio_track_id');
      expect((await rejection(f.trackProcessing.getTrackSpec({ asset_id: 'asset1', track_id: 'nope' }))).messages).toEqual(['Track not found']);
      expect((await rejection(f.trackProcessing.getTrackSpec({ asset_id: 'gone', track_id: 'g1' }))).messages).toEqual(['Asset not found']);
    });
  });

  describe('setTrackStatus', () => {
    const set = (fields: Partial<assets.SetTrackStatusRequest>): assets.SetTrackStatusRequest => ({
      asset_id: 'asset1',
      track_id: 't1',
      status: 'ready',
      ...fields,
    });

    it('makes a text track ready, sending the cues left out as video.asset.warning with the change', async () => {
      const f = fixture();
      const warning = { type: 'text_track_cues_skipped', message: 'Text track t1 (English): 1 of 3 cues skipped: cue 2 (line 5): it has no text' };
      const after = await f.trackProcessing.setTrackStatus(set({ warning }));
      const { source: _source, ...text } = TEXT;
      expect(after.tracks[2]).toEqual({ ...text, status: 'ready' });
      expect(f.events.map((e) => e.type)).toEqual(['video.asset.track.ready', 'video.asset.warning']);
      expect(f.events[0].data).toEqual({ ...text, status: 'ready', asset_id: 'asset1' });
      expect((f.events[1].data as { warning: unknown }).warning).toEqual(warning);
      // a repeat changes nothing and sends nothing
      expect(await f.trackProcessing.setTrackStatus(set({ warning }))).toEqual(after);
      expect(f.events).toHaveLength(2);
    });

    it('gives a ready audio track its duration and channels', async () => {
      const f = fixture();
      const after = await f.trackProcessing.setTrackStatus(set({ track_id: 'fr', duration: 6.02, max_channels: 2 }));
      expect(after.tracks[3]).toEqual({
        id: 'fr',
        type: 'audio',
        primary: false,
        language_code: 'fr',
        name: 'French',
        status: 'ready',
        duration: 6.02,
        max_channels: 2,
      });
    });

    it('makes a track errored with its error, which the track shows; a later ready clears it', async () => {
      const f = fixture();
      const error = { type: 'invalid_input', messages: ['The SubRip (SRT) file has no valid cue.'] };
      const errored = await f.trackProcessing.setTrackStatus(set({ status: 'errored', error }));
      expect(errored.tracks[2]).toMatchObject({ status: 'errored', error });
      expect(f.events[0]).toMatchObject({ type: 'video.asset.track.errored', data: { status: 'errored', error, asset_id: 'asset1' } });
      const ready = await f.trackProcessing.setTrackStatus(set({}));
      expect(ready.tracks[2]).not.toHaveProperty('error');
      expect((await rejection(f.trackProcessing.setTrackStatus(set({ status: 'errored', error: { type: '', messages: [] } })))).messages).toEqual([
        'errors.type: is required',
      ]);
    });

    it('refuses other statuses and unknown tracks', async () => {
      const f = fixture();
      const bad = await rejection(f.trackProcessing.setTrackStatus(set({ status: 'deleted' })));
      expect([bad.code, bad.messages]).toEqual([ErrorCode.INVALID_PARAMETERS, ['status: must be ready or errored']]);
      expect((await rejection(f.trackProcessing.setTrackStatus(set({ track_id: 'nope' })))).code).toBe(ErrorCode.NOT_FOUND);
      expect(f.events).toEqual([]);
    });
  });
});
