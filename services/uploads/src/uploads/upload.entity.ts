import { assets } from '@platform/proto';
import { ResumableWrite } from '@platform/storage';
import { Column, Entity, PrimaryColumn } from 'typeorm';
import { SCHEMA } from '../schema';

export type UploadStatus = 'waiting' | 'asset_created' | 'errored' | 'cancelled' | 'timed_out';

export interface UploadError {
  type: string;
  message: string;
}

@Entity({ schema: SCHEMA, name: 'uploads' })
export class UploadEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ type: 'text' })
  status!: UploadStatus;

  /** Seconds the URL stays valid. */
  @Column({ type: 'integer' })
  timeout!: number;

  @Column({ name: 'cors_origin', type: 'text', nullable: true })
  corsOrigin!: string | null;

  /** As validated by the assets service's rules (CheckAssetSettings); the first input has no url. */
  @Column({ name: 'new_asset_settings', type: 'jsonb', nullable: true })
  newAssetSettings!: assets.CreateAssetRequest | null;

  @Column({ type: 'boolean' })
  test!: boolean;

  @Column({ name: 'asset_id', type: 'text', nullable: true })
  assetId!: string | null;

  @Column({ type: 'jsonb', nullable: true })
  error!: UploadError | null;

  /** The random secret in the upload URL (`?signature=`). */
  @Column({ type: 'text' })
  signature!: string;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ type: 'jsonb', nullable: true })
  write!: ResumableWrite | null;

  /** The file's size as the client declared it (Content-Range `/total`), once known. */
  @Column({ name: 'total_bytes', type: 'bigint', nullable: true })
  totalBytes!: number | null;

  @Column({ name: 'claim_token', type: 'text', nullable: true })
  claimToken!: string | null;

  @Column({ name: 'claim_until', type: 'timestamptz', nullable: true })
  claimUntil!: Date | null;

  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true })
  completedAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', nullable: true })
  updatedAt!: Date | null;
}
