import { withoutAbsent } from '@platform/api-shapes';
import { assets } from '@platform/proto';
import { AssetInputBody, AssetSettingsBody, InputInfoBody } from './assets.schemas';

/** The create body as the assets service takes it (features not built yet were refused before). */
export function toCreateAssetRequest(body: AssetSettingsBody): assets.CreateAssetRequest {
  const inputs = body.inputs ?? body.input ?? [];
  const policies = body.playback_policies ?? body.playback_policy ?? [];
  return {
    input: typeof inputs === 'string' ? [{ url: inputs, generated_subtitles: [] }] : inputs.map(toAssetInput),
    playback_policy: typeof policies === 'string' ? [policies] : [...policies],
    passthrough: body.passthrough,
    max_resolution_tier: body.max_resolution_tier,
    encoding_tier: body.encoding_tier,
    video_quality: body.video_quality,
    mp4_support: body.mp4_support,
    master_access: body.master_access,
    normalize_audio: body.normalize_audio,
    test: body.test,
    static_renditions: (body.static_renditions ?? []).map((r) => withoutAbsent({ resolution: r.resolution, passthrough: r.passthrough })),
  };
}

/** Every field of spec 2.2's Input, as given (the assets service classifies and checks them). */
function toAssetInput(input: AssetInputBody): assets.AssetInput {
  const { overlay_settings: overlay, generated_subtitles: generated, ...fields } = input;
  return {
    ...withoutAbsent(fields),
    ...(overlay ? { overlay_settings: withoutAbsent(overlay) } : {}),
    generated_subtitles: (generated ?? []).map((g) => withoutAbsent(g)),
  };
}

/** What was read from one input: its settings as applied (an upload's stored file never shown), and the file. */
export function toInputInfo(info: assets.InputInfo): InputInfoBody {
  const { object_key: _stored, generated_subtitles: generated, overlay_settings: overlay, ...fields } = info.settings ?? { generated_subtitles: [] };
  // proto strings of values the assets service checked against the same enums
  const settings = withoutAbsent({
    ...fields,
    ...(overlay ? { overlay_settings: withoutAbsent(overlay) } : {}),
    ...(generated.length > 0 ? { generated_subtitles: generated.map((g) => withoutAbsent(g)) } : {}),
  }) as InputInfoBody['settings'];
  const body: InputInfoBody = { settings };
  if (info.file) body.file = { container_format: info.file.container_format, tracks: info.file.tracks.map((t) => withoutAbsent({ ...t })) };
  return body;
}
