import { lengthProblems, MAX_URL_LENGTH, passthroughProblems } from '@platform/api-rules';
import { WEB_INPUT_RESOLUTIONS } from '@platform/api-shapes';
import { DomainError } from '@platform/errors';
import { OutboundGuard } from '@platform/outbound';
import { webInputs } from '@platform/proto';

export const DEFAULT_RESOLUTION = '1920x1080';
/** Spec 2.9: 3600 s unless given. The spec gives no bounds: 1 s to 12 h (a live stream's longest continuous session). */
export const DEFAULT_TIMEOUT = 3600;
export const MIN_TIMEOUT = 1;
export const MAX_TIMEOUT = 43_200;
export const URL_SCHEMES = ['http', 'https'] as const;
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
  else problems.push(...lengthProblems('live_stream_id', request.live_stream_id, MAX_ID_LENGTH));
  const resolution = request.resolution ?? DEFAULT_RESOLUTION;
  if (!(WEB_INPUT_RESOLUTIONS as readonly string[]).includes(resolution)) problems.push(`resolution: must be one of ${WEB_INPUT_RESOLUTIONS.join(', ')}`);
  const timeout = request.timeout ?? DEFAULT_TIMEOUT;
  if (!Number.isInteger(timeout) || timeout < MIN_TIMEOUT || timeout > MAX_TIMEOUT)
    problems.push(`timeout: must be an integer from ${MIN_TIMEOUT} to ${MAX_TIMEOUT}`);
  problems.push(...passthroughProblems(request.passthrough));
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
  const tooLong = lengthProblems('url', url, MAX_URL_LENGTH);
  if (tooLong.length > 0) return tooLong;
  const refusal = guard.urlRefusal(url, URL_SCHEMES);
  return refusal ? [`url: ${refusal}`] : [];
}
