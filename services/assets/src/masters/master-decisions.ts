import { DomainError } from '@platform/errors';
import { assets } from '@platform/proto';
import { assetKeys } from '@platform/storage';
import { AssetEntity } from '../assets/asset.entity';
import { AssetChanges } from '../assets/asset.repository';
import { Decision } from '../static-renditions/download-changes';
import { MASTER_EVENTS } from '../static-renditions/download-events';

/** A ready master's URL: the random token in it, the URL, and when it stops working. */
export interface MasterGrant {
  token: string;
  url: string;
  expiresAt: Date;
}

const NO_MASTER = { masterStatus: null, masterToken: null, masterUrl: null, masterExpiresAt: null } satisfies AssetChanges;

/**
 * PUT master-access. `temporary` makes the master MP4 (`preparing`, with `master.preparing`; asked
 * again after it errored, it starts over; while preparing or ready, nothing changes). `none` removes
 * it at once: its URL stops working, `master` disappears (`master.deleted`) and the file goes.
 */
export function decideMasterAccess(asset: AssetEntity, value: string, now: Date): Decision<void> {
  if (value === 'none') {
    if (asset.masterAccess === 'none') return { result: undefined };
    return {
      changes: { masterAccess: 'none', ...NO_MASTER, updatedAt: now },
      events: asset.masterStatus !== null ? [{ type: MASTER_EVENTS.deleted }] : [],
      deleteKeys: [assetKeys.master(asset.id)],
      result: undefined,
    };
  }
  if (asset.masterAccess === 'temporary' && asset.masterStatus !== 'errored') return { result: undefined };
  if (asset.status === 'errored') throw DomainError.precondition('The asset is errored: it has no media to make a master of');
  return {
    changes: { masterAccess: 'temporary', ...NO_MASTER, masterStatus: 'preparing', updatedAt: now },
    events: [{ type: MASTER_EVENTS.preparing }],
    result: undefined,
  };
}

/** Whether the transcoder is to make the master now: once the asset is ingested, while it is asked for. */
export function decideMasterPlan(asset: AssetEntity): Decision<assets.MasterWork> {
  if (asset.status === 'errored') return { result: { action: 'none', reason: 'the asset is errored' } };
  if (asset.masterStatus !== 'preparing') return { result: { action: 'none', reason: `the master is ${asset.masterStatus ?? 'not asked for'}` } };
  if (asset.status === 'preparing') return { result: { action: 'wait', reason: 'the asset is not ingested yet' } };
  return { result: { action: 'make', reason: '' } };
}

/**
 * The transcoder stored the master (`ready`: its URL works from now for the configured window) or gave
 * up (`errored`). A master no longer asked for is refused (the transcoder removes what it stored); a
 * repeat changes nothing.
 */
export function decideMasterRecord(asset: AssetEntity, status: string, grant: MasterGrant, stored: boolean): Decision<void> {
  if (status !== 'ready' && status !== 'errored') throw DomainError.invalid('status: must be ready or errored');
  if (asset.masterStatus === status) return { result: undefined };
  if (asset.masterStatus !== 'preparing') throw DomainError.precondition('master_access no longer asks for the master');
  if (status === 'errored') return { changes: { masterStatus: 'errored' }, events: [{ type: MASTER_EVENTS.errored }], result: undefined };
  if (!stored) throw DomainError.precondition('the master is not stored');
  return {
    changes: { masterStatus: 'ready', masterToken: grant.token, masterUrl: grant.url, masterExpiresAt: grant.expiresAt },
    events: [{ type: MASTER_EVENTS.ready }],
    result: undefined,
  };
}

/** After the window (spec: 24 hours) master_access returns to `none` and `master` disappears. True when it expired now. */
export function decideMasterExpiry(asset: AssetEntity, now: Date): Decision<boolean> {
  if (!asset.masterExpiresAt || asset.masterExpiresAt > now) return { result: false };
  return {
    changes: { masterAccess: 'none', ...NO_MASTER },
    events: [{ type: MASTER_EVENTS.deleted }],
    deleteKeys: [assetKeys.master(asset.id)],
    result: true,
  };
}
