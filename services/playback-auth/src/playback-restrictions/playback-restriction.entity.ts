import { Column, Entity, PrimaryColumn } from 'typeorm';
import { SCHEMA } from '../schema';

@Entity({ schema: SCHEMA, name: 'playback_restrictions' })
export class PlaybackRestrictionEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  /** Lowercase and unique: `*`, hostnames and `*.hostname` wildcards. */
  @Column({ name: 'allowed_domains', type: 'text', array: true })
  allowedDomains!: string[];

  @Column({ name: 'allow_no_referrer', type: 'boolean' })
  allowNoReferrer!: boolean;

  @Column({ name: 'allow_no_user_agent', type: 'boolean' })
  allowNoUserAgent!: boolean;

  @Column({ name: 'allow_high_risk_user_agent', type: 'boolean' })
  allowHighRiskUserAgent!: boolean;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
