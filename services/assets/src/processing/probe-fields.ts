import { DomainError } from '@platform/errors';
import { assets } from '@platform/proto';

export const RESOLUTION_TIERS = ['audio-only', '720p', '1080p', '1440p', '2160p'] as const;
export const MAX_STORED_RESOLUTIONS = ['Audio only', 'SD', 'HD', 'FHD', 'UHD'] as const;
export const TRACK_TYPES = ['video', 'audio', 'text'] as const;
/** The members of non_standard_input_reasons (spec 2.1). */
export const NON_STANDARD_REASONS = [
  'video_codec',
  'audio_codec',
  'video_gop_size',
  'video_frame_rate',
  'video_resolution',
  'video_bitrate',
  'pixel_aspect_ratio',
  'video_edit_list',
  'audio_edit_list',
  'unexpected_media_file_parameters',
  'unsupported_pixel_format',
] as const;

const within = (values: readonly string[], value: string | undefined) => value === undefined || values.includes(value);

/** Checks what the transcoder reports against spec 2.1's vocabularies; every problem named. */
export function checkProbe(r: assets.RecordProbeRequest): void {
  const problems: string[] = [];
  if (r.duration !== undefined && !(Number.isFinite(r.duration) && r.duration >= 0)) problems.push('duration: must be a number of seconds, at least 0');
  if (!within(RESOLUTION_TIERS, r.resolution_tier)) problems.push(`resolution_tier: must be one of ${RESOLUTION_TIERS.join(', ')}`);
  if (!within(MAX_STORED_RESOLUTIONS, r.max_stored_resolution)) problems.push(`max_stored_resolution: must be one of ${MAX_STORED_RESOLUTIONS.join(', ')}`);
  (r.tracks ?? []).forEach((t, i) => {
    if (!within(TRACK_TYPES, t.type)) problems.push(`tracks[${i}].type: must be one of ${TRACK_TYPES.join(', ')}`);
  });
  (r.recording_times ?? []).forEach((t, i) => {
    if (!['content', 'slate'].includes(t.type)) problems.push(`recording_times[${i}].type: must be content or slate`);
    if (Number.isNaN(Date.parse(t.started_at))) problems.push(`recording_times[${i}].started_at: must be an ISO 8601 time`);
    if (!(Number.isFinite(t.duration) && t.duration >= 0)) problems.push(`recording_times[${i}].duration: must be a number of seconds, at least 0`);
  });
  for (const key of Object.keys(r.non_standard_input_reasons ?? {})) {
    if (!within(NON_STANDARD_REASONS, key)) problems.push(`non_standard_input_reasons.${key}: is not a reason of spec 2.1`);
  }
  if (problems.length > 0) throw DomainError.invalid(...problems);
}

export function checkErrors(errors: assets.AssetErrors | undefined): assets.AssetErrors {
  if (!errors || errors.type === '') throw DomainError.invalid('errors.type: is required');
  return { type: errors.type, messages: [...(errors.messages ?? [])] };
}

export function checkWarning(warning: assets.AssetWarning | undefined): assets.AssetWarning {
  const problems: string[] = [];
  if (!warning || !/^[a-z][a-z0-9_]{0,63}$/.test(warning.type)) problems.push('warning.type: must be a snake_case word of at most 64 characters');
  if (!warning || warning.message.trim() === '' || warning.message.length > 1000) problems.push('warning.message: must be 1 to 1000 characters');
  if (problems.length > 0) throw DomainError.invalid(...problems);
  return { type: warning!.type, message: warning!.message };
}
