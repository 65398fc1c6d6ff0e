import { assets } from '@platform/proto';
import { PlaybackIdOwnerBody } from './playback-ids.schemas';

/** The owner's status is for the playback host only; the API does not show it. */
export function toPlaybackIdOwner(owner: assets.PlaybackIdOwner): PlaybackIdOwnerBody {
  return {
    id: owner.id,
    policy: owner.policy as PlaybackIdOwnerBody['policy'],
    object: { type: (owner.object?.type ?? 'asset') as PlaybackIdOwnerBody['object']['type'], id: owner.object?.id ?? '' },
  };
}
