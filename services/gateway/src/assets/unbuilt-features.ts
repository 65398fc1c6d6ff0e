import { ApiError } from '../errors/api-error';
import { AssetSettingsBody, CreatePlaybackIdBody, UpdateAssetBody } from './assets.schemas';

/**
 * Valid requests for features of Mux that are not built yet: 501 not_implemented (with
 * `x-should-retry: false`), naming each field, rather than silently ignoring it. Checked
 * after validation, so a request with an invalid field still gets its 400 first. One check
 * per feature: a feature that lands removes its own.
 */
export function refuseUnbuiltAssetFeatures(body: AssetSettingsBody, prefix = ''): void {
  const later = [...unbuiltDrm(body), ...unbuiltMuxOnly(body), ...unbuiltClipWithoutOverlays(body)];
  if (later.length > 0)
    throw new ApiError(
      'not_implemented',
      later.map((m) => prefix + m),
    );
}

function unbuiltDrm(body: AssetSettingsBody): string[] {
  const policies = body.playback_policies ?? body.playback_policy;
  const policyField = body.playback_policies !== undefined ? 'playback_policies' : 'playback_policy';
  const later = (Array.isArray(policies) ? policies : [policies]).includes('drm') ? [`${policyField}: DRM playback is not implemented yet`] : [];
  if (body.advanced_playback_policies !== undefined) later.push('advanced_playback_policies: not implemented yet (advanced playback policies (DRM))');
  return later;
}

/** Mux features outside spec 000. */
function unbuiltMuxOnly(body: AssetSettingsBody): string[] {
  const muxOnly: Array<[keyof AssetSettingsBody, string]> = [
    ['meta', 'asset metadata'],
    ['generate_shots', 'shot detection'],
    ['directives', 'Mux Robots directives'],
  ];
  return muxOnly.filter(([name]) => body[name] !== undefined).map(([name, feature]) => `${name}: not implemented yet (${feature})`);
}

/**
 * A clip is cut from its source's renditions, whose watermarks are burnt in: it always has them, which is
 * Mux's default (`copy_overlays: true`, accepted); leaving them out would need the source's unmarked media.
 */
function unbuiltClipWithoutOverlays(body: AssetSettingsBody): string[] {
  return body.copy_overlays === false
    ? ["copy_overlays: false is not implemented yet (a clip is cut from its source's renditions, which carry the source's watermarks)"]
    : [];
}

/** PATCH: Mux's `meta` is a later feature (the schema requires one field at least). */
export function refuseUnbuiltUpdateFeatures(body: UpdateAssetBody): void {
  if (body.meta !== undefined) throw new ApiError('not_implemented', 'meta: asset metadata is not implemented yet');
}

export function refuseUnbuiltPlaybackIdFeatures(body: CreatePlaybackIdBody): void {
  if (body.policy === 'drm' || body.drm_configuration_id !== undefined) throw new ApiError('not_implemented', 'policy: DRM playback is not implemented yet');
}
