import { withoutAbsent } from '@platform/api-shapes';
import { assets } from '@platform/proto';
import { AssetSettingsBody, InputInfoBody } from './assets.schemas';

/** The create body as the assets service takes it (features not built yet were refused before). */
export function toCreateAssetRequest(body: AssetSettingsBody): assets.CreateAssetRequest {
  const inputs = body.inputs ?? body.input ?? [];
  const policies = body.playback_policies ?? body.playback_policy ?? [];
  return {
    input: typeof inputs === 'string' ? [{ url: inputs }] : inputs.map((i) => (i.url !== undefined ? { url: i.url } : {})),
    playback_policy: typeof policies === 'string' ? [policies] : [...policies],
    passthrough: body.passthrough,
    max_resolution_tier: body.max_resolution_tier,
    encoding_tier: body.encoding_tier,
    video_quality: body.video_quality,
    mp4_support: body.mp4_support,
    master_access: body.master_access,
    normalize_audio: body.normalize_audio,
    test: body.test,
  };
}

export function toInputInfo(info: assets.InputInfo): InputInfoBody {
  const body: InputInfoBody = { settings: withoutAbsent({ url: info.settings?.url }) };
  if (info.file) body.file = { container_format: info.file.container_format, tracks: info.file.tracks.map((t) => withoutAbsent({ ...t })) };
  return body;
}
