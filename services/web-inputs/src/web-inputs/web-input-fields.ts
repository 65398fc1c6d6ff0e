import { characterCount } from '@platform/api-rules';
import { WEB_INPUT_RESOLUTIONS } from '@platform/api-shapes';
import { DomainError } from '@platform/errors';
import { OutboundGuard } from '@platform/outbound';
import { webInputs } from '@platform/proto';

export const MAX_PASSTHROUGH_LENGTH = 255;
export const DEFAULT_RESOLUTION = '1920x1080';
/** Spec 2.9: 3600 s unless given. The spec gives no bounds: 1 s to 12 h (a live stream's longest continuous session). */
export const DEFAULT_TIMEOUT = 3600;
export const MIN_TIMEOUT = 1;
export const MAX_TIMEOUT = 43_200;
export const URL_SCHEMES = ['http', 'https'] as const;
export const MAX_URL_LENGTH = 2048;
export const MAX_ID_LENGTH = 255;

export interface WebInputFields {
  url: string;
  liveStreamId: string;
  autoLaunch: boolean;
  passthrough: string | null;
  resolution: string;
  timeout: number;
}

/** The fields of a new web input with their defaults; every rule broken is named (the gateway checked them first). */
export function validWebInputFields(request: webInputs.CreateWebInputRequest, guard: OutboundGuard): WebInputFields {
  const problems = [...urlProblems(request.url, guard)];
  if (!request.live_stream_id) problems.push('live_stream_id: is required');
  else if (characterCount(request.live_stream_id) > MAX_ID_LENGTH) problems.push(`live_stream_id: must be at most ${MAX_ID_LENGTH} characters`);
  const resolution = request.resolution ?? DEFAULT_RESOLUTION;
  if (!(WEB_INPUT_RESOLUTIONS as readonly string[]).includes(resolution)) problems.push(`resolution: must be one of ${WEB_INPUT_RESOLUTIONS.join(', ')}`);
  const timeout = request.timeout ?? DEFAULT_TIMEOUT;
  if (!Number.isInteger(timeout) || timeout < MIN_TIMEOUT || timeout > MAX_TIMEOUT)
    problems.push(`timeout: must be an integer from ${MIN_TIMEOUT} to ${MAX_TIMEOUT}`);
  if (request.passthrough !== undefined && characterCount(request.passthrough) > MAX_PASSTHROUGH_LENGTH) {
    problems.push(`passthrough: must be at most ${MAX_PASSTHROUGH_LENGTH} characters`);
  }
  if (problems.length > 0) throw DomainError.invalid(...problems);
  return {
    url: request.url,
    liveStreamId: request.live_stream_id,
    autoLaunch: request.auto_launch ?? false,
    passthrough: request.passthrough !== undefined && request.passthrough !== '' ? request.passthrough : null,
    resolution,
    timeout,
  };
}

/** `url`: an http(s) URL the platform may connect to (OUTBOUND_ALLOW; a host name is resolved again at launch). */
export function urlProblems(url: string, guard: OutboundGuard): string[] {
  if (!url) return ['url: is required'];
  if (characterCount(url) > MAX_URL_LENGTH) return [`url: must be at most ${MAX_URL_LENGTH} characters`];
  const refusal = guard.urlRefusal(url, URL_SCHEMES);
  return refusal ? [`url: ${refusal}`] : [];
}
