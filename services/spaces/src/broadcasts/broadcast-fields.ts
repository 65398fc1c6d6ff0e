import { lengthProblems, MAX_URL_LENGTH, passthroughProblems } from '@platform/api-rules';
import { BROADCAST_LAYOUTS, BROADCAST_RESOLUTIONS } from '@platform/api-shapes';
import { OutboundGuard } from '@platform/outbound';
import { spaces } from '@platform/proto';

export const MAX_ID_LENGTH = 255;
export const DEFAULT_LAYOUT = 'gallery';
export const DEFAULT_RESOLUTION = '1920x1080';

export interface BroadcastFields {
  liveStreamId: string;
  layout: string;
  resolution: string;
  background: string | null;
  passthrough: string | null;
}

/**
 * The fields of a new broadcast with the defaults of spec 2.10, or every rule broken, each prefixed with
 * `at` (`broadcasts[0].` inside a space's create). The background is loaded by the compositor's browser, so
 * it must be an http(s) URL the platform may reach (OUTBOUND_ALLOW).
 */
export function broadcastFieldsOrProblems(input: spaces.BroadcastInput, guard: OutboundGuard, at = ''): BroadcastFields | string[] {
  const problems: string[] = [];
  if (!input.live_stream_id) problems.push(`${at}live_stream_id: is required`);
  else problems.push(...lengthProblems(`${at}live_stream_id`, input.live_stream_id, MAX_ID_LENGTH));
  const layout = input.layout ?? DEFAULT_LAYOUT;
  if (!(BROADCAST_LAYOUTS as readonly string[]).includes(layout)) problems.push(`${at}layout: must be one of ${BROADCAST_LAYOUTS.join(', ')}`);
  const resolution = input.resolution ?? DEFAULT_RESOLUTION;
  if (!(BROADCAST_RESOLUTIONS as readonly string[]).includes(resolution)) {
    problems.push(`${at}resolution: must be one of ${BROADCAST_RESOLUTIONS.join(', ')}`);
  }
  if (input.background !== undefined && input.background !== '') {
    const tooLong = lengthProblems(`${at}background`, input.background, MAX_URL_LENGTH);
    if (tooLong.length > 0) problems.push(...tooLong);
    else {
      const refusal = guard.urlRefusal(input.background, ['http', 'https']);
      if (refusal) problems.push(`${at}background: ${refusal}`);
    }
  }
  problems.push(...passthroughProblems(input.passthrough, `${at}passthrough`));
  if (problems.length > 0) return problems;
  return {
    liveStreamId: input.live_stream_id,
    layout,
    resolution,
    background: input.background ? input.background : null,
    passthrough: input.passthrough ? input.passthrough : null,
  };
}
