import { unixSeconds } from '@platform/ids';
import { spaces } from '@platform/proto';
import { BroadcastEntity } from '../broadcasts/broadcast.entity';
import { SpaceEntity } from './space.entity';

export function toBroadcastMessage(b: BroadcastEntity): spaces.Broadcast {
  return {
    id: b.id,
    ...(b.passthrough !== null ? { passthrough: b.passthrough } : {}),
    live_stream_id: b.liveStreamId,
    status: b.status,
    layout: b.layout,
    ...(b.background !== null ? { background: b.background } : {}),
    resolution: b.resolution,
  };
}

export function toSpaceMessage(s: SpaceEntity, broadcasts: BroadcastEntity[]): spaces.Space {
  return {
    id: s.id,
    status: s.status,
    created_at: Number(unixSeconds(s.createdAt)),
    type: s.type,
    ...(s.passthrough !== null ? { passthrough: s.passthrough } : {}),
    broadcasts: broadcasts.map(toBroadcastMessage),
    ...(s.activeSessionId !== null ? { active_session_id: s.activeSessionId } : {}),
  };
}
