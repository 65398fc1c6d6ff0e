import { webInputs } from '@platform/proto';
import { unixSeconds } from '@platform/ids';
import { WebInputEntity } from './web-input.entity';

export function toWebInputMessage(w: WebInputEntity): webInputs.WebInput {
  return {
    id: w.id,
    status: w.status,
    created_at: Number(unixSeconds(w.createdAt)),
    url: w.url,
    auto_launch: w.autoLaunch,
    live_stream_id: w.liveStreamId,
    ...(w.passthrough !== null ? { passthrough: w.passthrough } : {}),
    resolution: w.resolution,
    timeout: w.timeout,
  };
}
