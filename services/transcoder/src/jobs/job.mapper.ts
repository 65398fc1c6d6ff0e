import { transcoder } from '@platform/proto';
import { JobEntity } from './job.entity';

const seconds = (date: Date): number => Math.floor(date.getTime() / 1000);

export function toJobMessage(job: JobEntity): transcoder.Job {
  return {
    id: job.id,
    asset_id: job.assetId,
    status: job.status,
    phase: job.phase,
    playable: job.playable,
    attempts: job.attempts,
    ...(job.worker !== null ? { worker: job.worker } : {}),
    ...(job.leaseExpiresAt !== null ? { lease_expires_at: seconds(job.leaseExpiresAt) } : {}),
    ...(job.error !== null ? { error: job.error } : {}),
    created_at: seconds(job.createdAt),
    updated_at: seconds(job.updatedAt),
  };
}
