import { ApiError } from '../errors/api-error';
import { AssetInputBody, AssetSettingsBody, CreatePlaybackIdBody, isClipUrl, UpdateAssetBody } from './assets.schemas';

/**
 * Valid requests for features of Mux that are not built yet: 501 not_implemented (with
 * `x-should-retry: false`), naming each field, rather than silently ignoring it. Checked
 * after validation, so a request with an invalid field still gets its 400 first.
 */
export function refuseUnbuiltAssetFeatures(body: AssetSettingsBody, prefix = ''): void {
  const later: string[] = [];
  const field = body.inputs !== undefined ? 'inputs' : 'input';
  const inputs = body.inputs ?? body.input;
  if (Array.isArray(inputs)) {
    inputs.slice(0, 1).forEach((input) => later.push(...unbuiltInputFeatures(input, `${field}[0]`)));
    if (inputs.length > 1) later.push(`${field}[1]: more than one input (audio tracks, text tracks, overlays) is not implemented yet`);
  } else if (inputs !== undefined && isClipUrl(inputs)) {
    later.push(`${field}: clips from svc://assets/{asset_id} are not implemented yet`);
  }
  const policies = body.playback_policies ?? body.playback_policy;
  const policyField = body.playback_policies !== undefined ? 'playback_policies' : 'playback_policy';
  if ((Array.isArray(policies) ? policies : [policies]).includes('drm')) later.push(`${policyField}: DRM playback is not implemented yet`);
  if (body.mp4_support !== undefined && body.mp4_support !== 'none') {
    later.push(`mp4_support: ${JSON.stringify(body.mp4_support)} is not implemented yet (static MP4 renditions); use "none"`);
  }
  if (body.master_access === 'temporary') later.push('master_access: "temporary" is not implemented yet (master MP4 downloads); use "none"');
  if (body.normalize_audio === true) later.push('normalize_audio: true is not implemented yet (audio loudness normalization); use false');
  const muxOnly: Array<[keyof AssetSettingsBody, string]> = [
    ['advanced_playback_policies', 'advanced playback policies (DRM)'],
    ['static_renditions', 'static renditions'],
    ['meta', 'asset metadata'],
    ['generate_shots', 'shot detection'],
    ['directives', 'Mux Robots directives'],
    ['copy_overlays', 'clips'],
  ];
  for (const [name, feature] of muxOnly) if (body[name] !== undefined) later.push(`${name}: not implemented yet (${feature})`);
  if (later.length > 0)
    throw new ApiError(
      'not_implemented',
      later.map((m) => prefix + m),
    );
}

function unbuiltInputFeatures(input: AssetInputBody, at: string): string[] {
  const later: string[] = [];
  if (input.url !== undefined && isClipUrl(input.url)) later.push(`${at}.url: clips from svc://assets/{asset_id} are not implemented yet`);
  if (input.overlay_settings !== undefined) later.push(`${at}.overlay_settings: watermark overlays are not implemented yet`);
  if (input.generated_subtitles !== undefined) later.push(`${at}.generated_subtitles: generated subtitles are not implemented yet`);
  if (input.start_time !== undefined || input.end_time !== undefined) later.push(`${at}.start_time, end_time: clips are not implemented yet`);
  if (input.type !== undefined && input.type !== 'video') later.push(`${at}.type: audio and text track inputs are not implemented yet`);
  for (const name of ['text_type', 'language_code', 'name', 'closed_captions', 'passthrough'] as const) {
    if (input[name] !== undefined) later.push(`${at}.${name}: track settings of inputs are not implemented yet`);
  }
  return later;
}

/** PATCH: Mux's `meta` and `thumbnail_time` are later features (the schema requires one field at least). */
export function refuseUnbuiltUpdateFeatures(body: UpdateAssetBody): void {
  const later: string[] = [];
  if (body.meta !== undefined) later.push('meta: asset metadata is not implemented yet');
  if (body.thumbnail_time !== undefined) later.push('thumbnail_time: thumbnails are not implemented yet');
  if (later.length > 0) throw new ApiError('not_implemented', later);
}

export function refuseUnbuiltPlaybackIdFeatures(body: CreatePlaybackIdBody): void {
  if (body.policy === 'drm' || body.drm_configuration_id !== undefined) throw new ApiError('not_implemented', 'policy: DRM playback is not implemented yet');
}
