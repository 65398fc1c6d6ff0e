import { assets } from '@platform/proto';
import { TEST_ASSET_SECONDS } from '../media/ffmpeg-args';
import { ProbedAsset } from '../media/probe.types';

/**
 * RecordProbe from the probe's reading. A test asset keeps only its first 10 s, so its durations are
 * capped there. Track ids are left empty: the assets service names its tracks.
 */
export function toRecordProbeRequest(assetId: string, probed: ProbedAsset, test: boolean): assets.RecordProbeRequest {
  const cap = (d: number | undefined) => (d === undefined ? undefined : test ? Math.min(d, TEST_ASSET_SECONDS) : d);
  const tracks: assets.Track[] = probed.tracks.map((t) => {
    const duration = cap(t.duration);
    const common = { id: '', type: t.type, ...(duration !== undefined ? { duration } : {}) };
    return t.type === 'video'
      ? { ...common, max_width: t.max_width, max_height: t.max_height, max_frame_rate: t.max_frame_rate }
      : { ...common, max_channels: t.max_channels, primary: t.primary };
  });
  return {
    asset_id: assetId,
    duration: cap(probed.duration),
    max_stored_resolution: probed.max_stored_resolution,
    resolution_tier: probed.resolution_tier,
    ...(probed.max_stored_frame_rate !== undefined ? { max_stored_frame_rate: probed.max_stored_frame_rate } : {}),
    ...(probed.aspect_ratio !== undefined ? { aspect_ratio: probed.aspect_ratio } : {}),
    tracks,
    non_standard_input_reasons: { ...(probed.non_standard_input_reasons ?? {}) },
    // The assets service gives each input its stored settings; the main input's file is what was probed.
    input_info: [{ settings: undefined, file: probed.input_info }],
    recording_times: [],
  };
}
