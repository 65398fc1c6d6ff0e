import { toBroadcastEvent, toSpace } from '@platform/api-shapes';
import { Emit, EventTypeFor } from '@platform/events';
import { BroadcastEntity } from '../broadcasts/broadcast.entity';
import { SpaceEntity } from './space.entity';
import { toBroadcastMessage, toSpaceMessage } from './space.mapper';

export const SPACE_EVENTS = {
  created: 'video.space.created',
  active: 'video.space.active',
  idle: 'video.space.idle',
  deleted: 'video.space.deleted',
} as const;

export const BROADCAST_EVENTS = {
  created: 'video.space.broadcast.created',
  active: 'video.space.broadcast.active',
  idle: 'video.space.broadcast.idle',
  deleted: 'video.space.broadcast.deleted',
} as const;

/** The data is the space's API body (broadcasts and passthrough included), from the mapper the gateway uses too. */
export function emitSpace(emit: Emit, type: EventTypeFor<'space'>, space: SpaceEntity, broadcasts: BroadcastEntity[]): void {
  emit(type, toSpace(toSpaceMessage(space, broadcasts)));
}

/** The data is the broadcast's API body and its space's id. */
export function emitBroadcast(emit: Emit, type: EventTypeFor<'broadcast'>, broadcast: BroadcastEntity): void {
  emit(type, toBroadcastEvent(broadcast.spaceId, toBroadcastMessage(broadcast)));
}
