import { assets, live } from '@platform/proto';
import { Column, Entity, PrimaryColumn } from 'typeorm';
import { SCHEMA } from '../schema';

export type LiveStreamStatus = 'idle' | 'active' | 'disabled';
export type LatencyMode = 'low' | 'reduced' | 'standard';

@Entity({ schema: SCHEMA, name: 'live_streams' })
export class LiveStreamEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  /** A credential: whoever holds it can stream. */
  @Column({ name: 'stream_key', type: 'text' })
  streamKey!: string;

  @Column({ name: 'srt_passphrase', type: 'text' })
  srtPassphrase!: string;

  @Column({ type: 'text' })
  status!: LiveStreamStatus;

  @Column({ name: 'active_ingest_protocol', type: 'text', nullable: true })
  activeIngestProtocol!: string | null;

  @Column({ name: 'active_asset_id', type: 'text', nullable: true })
  activeAssetId!: string | null;

  @Column({ name: 'recent_asset_ids', type: 'jsonb' })
  recentAssetIds!: string[];

  @Column({ name: 'new_asset_settings', type: 'jsonb', nullable: true })
  newAssetSettings!: assets.CreateAssetRequest | null;

  @Column({ type: 'text', nullable: true })
  passthrough!: string | null;

  @Column({ name: 'audio_only', type: 'boolean' })
  audioOnly!: boolean;

  @Column({ name: 'embedded_subtitles', type: 'jsonb' })
  embeddedSubtitles!: live.EmbeddedSubtitle[];

  @Column({ name: 'generated_subtitles', type: 'jsonb' })
  generatedSubtitles!: live.GeneratedSubtitle[];

  @Column({ name: 'reconnect_window', type: 'double precision' })
  reconnectWindow!: number;

  @Column({ name: 'use_slate_for_standard_latency', type: 'boolean' })
  useSlateForStandardLatency!: boolean;

  @Column({ name: 'reconnect_slate_url', type: 'text', nullable: true })
  reconnectSlateUrl!: string | null;

  @Column({ name: 'latency_mode', type: 'text' })
  latencyMode!: LatencyMode;

  @Column({ type: 'boolean' })
  test!: boolean;

  @Column({ name: 'max_continuous_duration', type: 'integer' })
  maxContinuousDuration!: number;

  /** `PUT …/complete` during a recording: the ingest ends it, and drops the encoder 60 s later. */
  @Column({ name: 'complete_requested_at', type: 'timestamptz', nullable: true })
  completeRequestedAt!: Date | null;

  /** The live process holding the stream's encoder session or open recording (null: none). */
  @Column({ name: 'ingest_owner', type: 'text', nullable: true })
  ingestOwner!: string | null;

  /** Until when `ingestOwner` holds it; renewed every second while it runs. */
  @Column({ name: 'ingest_lease_until', type: 'timestamptz', nullable: true })
  ingestLeaseUntil!: Date | null;

  /** When the encoder of the open recording left (the reconnect window runs from it); null while it is on. */
  @Column({ name: 'disconnected_at', type: 'timestamptz', nullable: true })
  disconnectedAt!: Date | null;

  /** Set by a process that took the stream over from a running one in its reconnect window; cleared by that one once it let the recording go. */
  @Column({ name: 'ingest_handover_at', type: 'timestamptz', nullable: true })
  ingestHandoverAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', nullable: true })
  updatedAt!: Date | null;
}

@Entity({ schema: SCHEMA, name: 'playback_ids' })
export class LivePlaybackIdEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'live_stream_id', type: 'text' })
  liveStreamId!: string;

  @Column({ type: 'text' })
  policy!: 'public' | 'signed';

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}

export type SimulcastStatus = 'idle' | 'starting' | 'broadcasting' | 'errored';

@Entity({ schema: SCHEMA, name: 'simulcast_targets' })
export class SimulcastTargetEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'live_stream_id', type: 'text' })
  liveStreamId!: string;

  @Column({ type: 'text', nullable: true })
  passthrough!: string | null;

  @Column({ type: 'text' })
  status!: SimulcastStatus;

  @Column({ name: 'stream_key', type: 'text', nullable: true })
  streamKey!: string | null;

  @Column({ type: 'text' })
  url!: string;

  @Column({ name: 'error_severity', type: 'text', nullable: true })
  errorSeverity!: 'normal' | 'fatal' | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
