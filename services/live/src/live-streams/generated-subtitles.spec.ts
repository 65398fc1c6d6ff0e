import { GENERATED_SUBTITLES_NAME, generatedSubtitlesOf, generatedTextTracks } from './generated-subtitles';
import { recordProbeRequest } from './recording-probe';

describe('generated subtitles of a live stream', () => {
  it('take the stream’s one entry with its defaults: English, a name saying what it is', () => {
    expect(generatedSubtitlesOf([])).toBeUndefined();
    expect(generatedSubtitlesOf([{ transcription_vocabulary_ids: [] }])).toEqual({ name: GENERATED_SUBTITLES_NAME, languageCode: 'en' });
    expect(generatedSubtitlesOf([{ name: 'Live CC', language_code: 'en-US', passthrough: 'p', transcription_vocabulary_ids: ['v'] }])).toEqual({
      name: 'Live CC',
      languageCode: 'en-US',
      passthrough: 'p',
    });
  });

  it('make the two text tracks of spec 2.3: generated_live and generated_live_final', () => {
    const tracks = generatedTextTracks({ name: 'Live CC', languageCode: 'en', passthrough: 'p' }, { live: 'ready', final: 'preparing' });
    const common = { id: '', type: 'text', text_type: 'subtitles', language_code: 'en', name: 'Live CC', passthrough: 'p' };
    expect(tracks).toEqual([
      { ...common, text_source: 'generated_live', status: 'ready' },
      { ...common, text_source: 'generated_live_final', status: 'preparing' },
    ]);
  });

  it('come first among a recording’s text tracks, so the ids given when the recording started are kept', () => {
    const request = recordProbeRequest('a1', {
      duration: 12,
      audio: { channels: 2 },
      captions: [{ name: 'en CC', languageCode: 'en' }],
      generated: { subtitles: { name: 'Live CC', languageCode: 'en' }, statuses: { live: 'ready', final: 'preparing' } },
    });
    expect(request.tracks.map((t) => [t.type, t.text_source])).toEqual([
      ['audio', undefined],
      ['text', 'generated_live'],
      ['text', 'generated_live_final'],
      ['text', 'embedded'],
    ]);
  });
});
