import { assets } from '@platform/proto';
import { classifyInputs, languageName, uniqueName } from './asset-inputs';

const input = (fields: Partial<assets.AssetInput> = {}): assets.AssetInput => ({ generated_subtitles: [], ...fields });
const MAIN = input({ url: 'https://media.example/video.mp4' });
const text = (fields: Partial<assets.AssetInput> = {}) =>
  input({ url: 'https://media.example/en.vtt', type: 'text', text_type: 'subtitles', language_code: 'en', ...fields });
const audio = (fields: Partial<assets.AssetInput> = {}) => input({ url: 'https://media.example/fr.m4a', type: 'audio', language_code: 'fr', ...fields });
const overlay = (settings: assets.OverlaySettings = {}) => input({ url: 'https://media.example/logo.png', overlay_settings: settings });

function classify(inputs: assets.AssetInput[], ingestType = 'on_demand_url') {
  const invalid: string[] = [];
  return { ...classifyInputs(inputs, ingestType, invalid), invalid };
}

describe('classifyInputs (spec 2.2 inputs)', () => {
  it('tells the main input, a watermark and text and audio tracks apart, keeping every setting as given', () => {
    const result = classify([MAIN, overlay({ vertical_align: 'bottom', width: '10%' }), text({ closed_captions: true, passthrough: 'p' }), audio()]);
    expect(result.invalid).toEqual([]);
    expect(result.roles).toEqual(['main', 'overlay', 'text', 'audio']);
    expect(result.stored).toEqual([
      { url: 'https://media.example/video.mp4' },
      { url: 'https://media.example/logo.png', overlay_settings: { vertical_align: 'bottom', width: '10%' } },
      {
        url: 'https://media.example/en.vtt',
        type: 'text',
        text_type: 'subtitles',
        language_code: 'en',
        closed_captions: true,
        passthrough: 'p',
        name: 'English',
      },
      { url: 'https://media.example/fr.m4a', type: 'audio', language_code: 'fr', name: 'French' },
    ]);
  });

  it('fills names from the language, numbered within each group, and refuses a name given twice', () => {
    const named = classify([MAIN, text(), text(), text({ language_code: 'es-MX' }), audio({ language_code: 'en' }), text({ name: 'English 3' })]);
    expect(named.invalid).toEqual([]);
    expect(named.stored.map((s) => s.name)).toEqual([undefined, 'English', 'English 2', 'Mexican Spanish', 'English', 'English 3']);
    // the name of a later track is taken first, so a filled-in name never takes it
    expect(named.stored[5].name).toBe('English 3');
    const twice = classify([MAIN, text({ name: 'Subs' }), text({ name: 'Subs' })]);
    expect(twice.invalid).toEqual(['input[2].name: "Subs" is already the name of another text track']);
    const mainAudio = classify([input({ url: MAIN.url, name: 'Original' }), audio({ name: 'Original' })]);
    expect(mainAudio.invalid).toEqual(['input[1].name: "Original" is already the name of another audio track']);
  });

  it('takes several watermarks (burnt in one over the other)', () => {
    expect(classify([MAIN, overlay({ vertical_align: 'top' }), overlay({ vertical_align: 'bottom' })])).toMatchObject({
      invalid: [],
      roles: ['main', 'overlay', 'overlay'],
    });
  });

  it('knows a clip of another asset by its url, with its times', () => {
    const clip = classify([input({ url: 'svc://assets/abc123', start_time: 5, end_time: 10 })]);
    expect(clip).toMatchObject({ invalid: [], clipSourceAssetId: 'abc123', roles: ['main'] });
    expect(classify([input({ url: 'mux://assets/abc123' })]).clipSourceAssetId).toBe('abc123');
  });

  it.each<[string, assets.AssetInput[], string, string[]]>([
    ['no input from a URL', [], 'on_demand_url', ['input: is required (the URL of a media file)']],
    [
      'a text track first',
      [text()],
      'on_demand_url',
      [
        'input[0].type: the first input is the main media; text and audio tracks come after it',
        'input[0].text_type: only for text tracks (inputs with type text)',
      ],
    ],
    ['a watermark first', [overlay()], 'on_demand_url', ['input[0].overlay_settings: a watermark is an input of its own, after the main input']],
    [
      'a second video',
      [MAIN, input({ url: 'https://media.example/b.mp4', type: 'video' })],
      'on_demand_url',
      ['input[1].type: only the first input is the video; a watermark image needs overlay_settings'],
    ],
    [
      'a later input of no kind',
      [MAIN, input({ url: 'https://media.example/b.mp4' })],
      'on_demand_url',
      ['input[1]: give type (text or audio) for a track, or overlay_settings for a watermark'],
    ],
    [
      'a text track without its settings',
      [MAIN, input({ url: 'ftp://media.example/en.srt', type: 'text' })],
      'on_demand_url',
      [
        'input[1].url: must be an http or https URL',
        'input[1].language_code: is required for text tracks',
        'input[1].text_type: is required for text tracks ("subtitles")',
      ],
    ],
    ['an audio track with text settings', [MAIN, audio({ closed_captions: true })], 'on_demand_url', ['input[1].closed_captions: only for text tracks']],
    [
      'a bad language',
      [MAIN, audio({ language_code: 'english!' })],
      'on_demand_url',
      ['input[1].language_code: must be a BCP 47 language code such as "en" or "es-MX"'],
    ],
    [
      'bad watermark settings',
      [MAIN, overlay({ vertical_align: 'up', horizontal_margin: '10', width: '-5%', opacity: '150%' })],
      'on_demand_url',
      [
        'input[1].overlay_settings.vertical_align: must be one of "top", "middle", "bottom"',
        'input[1].overlay_settings.horizontal_margin: must be a percentage ("10%") or pixels ("40px"), negative to move it offscreen',
        'input[1].overlay_settings.width: must be a percentage ("25%") or pixels ("200px")',
        'input[1].overlay_settings.opacity: must be at most "100%"',
      ],
    ],
    [
      'clip times without a clip',
      [input({ url: MAIN.url, start_time: 1 })],
      'on_demand_url',
      ['input[0].start_time, end_time: only for clips (a url of the form svc://assets/{asset_id})'],
    ],
    [
      'a clip ending before it starts',
      [input({ url: 'svc://assets/abc', start_time: 10, end_time: 10 })],
      'on_demand_url',
      ['input[0].end_time: must be after start_time'],
    ],
    ['a clip url with a path', [input({ url: 'svc://assets/abc/def' })], 'on_demand_url', ['input[0].url: a clip names its source as svc://assets/{asset_id}']],
    [
      'a clip that is not the first input',
      [MAIN, input({ url: 'svc://assets/abc' })],
      'on_demand_url',
      ['input[1].url: a clip (svc://assets/{asset_id}) must be the first input'],
    ],
    [
      'a clip url as a track or a watermark',
      [MAIN, text({ url: 'mux://assets/abc' }), overlay({}), input({ url: 'svc://assets/abc', overlay_settings: {} })],
      'on_demand_url',
      ['input[1].url: a clip (svc://assets/{asset_id}) must be the first input', 'input[3].url: a clip (svc://assets/{asset_id}) must be the first input'],
    ],
    [
      'generated subtitles on a track',
      [MAIN, text({ generated_subtitles: [{ language_code: 'en' }] })],
      'on_demand_url',
      ['input[1].generated_subtitles: only on the first input'],
    ],
    [
      'an unknown subtitle language',
      [input({ url: MAIN.url, generated_subtitles: [{ language_code: 'xx' }] })],
      'on_demand_url',
      [expect.stringContaining('input[0].generated_subtitles[0].language_code: must be one of "en"')],
    ],
    ['a track on a live recording', [input(), text()], 'live_rtmp', ["input[1]: a live stream's recording takes no track inputs"]],
  ])('refuses %s, naming each field', (_name, inputs, ingestType, problems) => {
    expect(classify(inputs, ingestType).invalid).toEqual(problems);
  });

  it('takes a direct upload’s stored file and tracks after it', () => {
    const result = classify([input({ object_key: 'uploads/u1/source' }), text()], 'on_demand_direct_upload');
    expect(result.invalid).toEqual([]);
    expect(result.roles).toEqual(['main', 'text']);
  });
});

describe('track names', () => {
  it('are languages in English, numbered when taken', () => {
    expect(languageName('en')).toBe('English');
    expect(languageName('pt-BR')).toBe('Brazilian Portuguese');
    expect(uniqueName('English', new Set(['English', 'English 2']))).toBe('English 3');
    expect(uniqueName('French', new Set(['English']))).toBe('French');
  });
});
