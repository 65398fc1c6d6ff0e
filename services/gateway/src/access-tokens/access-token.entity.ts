import { Column, Entity, PrimaryColumn } from 'typeorm';
import { SCHEMA } from '../schema';

@Entity({ schema: SCHEMA, name: 'access_tokens' })
export class AccessTokenEntity {
  @PrimaryColumn('text')
  id!: string;

  @Column('text')
  name!: string;

  /** Hex SHA-256 of the secret. */
  @Column('text')
  secret_hash!: string;

  @Column('text', { array: true })
  permissions!: string[];

  @Column('timestamptz')
  created_at!: Date;

  @Column('timestamptz', { nullable: true })
  revoked_at!: Date | null;
}
