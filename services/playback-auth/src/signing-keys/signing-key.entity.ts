import { Column, Entity, PrimaryColumn } from 'typeorm';
import { SCHEMA } from '../schema';

@Entity({ schema: SCHEMA, name: 'signing_keys' })
export class SigningKeyEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  /** SPKI PEM of the public half; the private half is never stored. */
  @Column({ name: 'public_key', type: 'text' })
  publicKey!: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  /** Set once the key is deleted: it can never verify a token again. */
  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true })
  deletedAt!: Date | null;
}

/** What get/list read: never the key material. */
export type SigningKeySummary = Pick<SigningKeyEntity, 'id' | 'createdAt'>;
