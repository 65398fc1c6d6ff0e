import { DomainError, ErrorCode } from '@platform/errors';
import { assets } from '@platform/proto';
import { ClassifiedInputs } from './asset-inputs';

/**
 * Valid settings of features not built yet: NOT_IMPLEMENTED (the gateway's 501), each named, after
 * every invalid field was reported. One check per feature: a feature that lands removes its own.
 */
export function refuseUnbuiltFeatures(r: assets.CreateAssetRequest, inputs: ClassifiedInputs): void {
  const later = unbuiltLiveWatermarks(r, inputs);
  if (later.length > 0) throw new DomainError(ErrorCode.NOT_IMPLEMENTED, later);
}

/** Mux burns a live stream's watermarks into its live playback and recordings; the live service packages without re-encoding. */
function unbuiltLiveWatermarks(r: assets.CreateAssetRequest, inputs: ClassifiedInputs): string[] {
  if (r.ingest_type !== 'live_rtmp' && r.ingest_type !== 'live_srt') return [];
  return inputs.roles.flatMap((role, i) =>
    role === 'overlay' ? [`input[${i}].overlay_settings: watermarks on live streams are not implemented yet (live video is packaged without re-encoding)`] : [],
  );
}
