import { newAssetSettingsBody } from './new-asset-settings';

describe('newAssetSettingsBody', () => {
  it('echoes the settings with the policies as playback_policies and no stored-file key', () => {
    expect(
      newAssetSettingsBody({
        input: [{ object_key: 'uploads/u1/source', generated_subtitles: [] }],
        playback_policy: ['public', 'signed'],
        static_renditions: [],
        passthrough: 'p',
        max_resolution_tier: '2160p',
      }),
    ).toEqual({ input: [{}], playback_policies: ['public', 'signed'], passthrough: 'p', max_resolution_tier: '2160p' });
    expect(newAssetSettingsBody({ input: [], static_renditions: [], playback_policy: [] })).toEqual({});
  });
});
