import { assets } from '@platform/proto';
import { Column, Entity, PrimaryColumn } from 'typeorm';
import { SCHEMA } from '../schema';
import type { StoredTrack } from '../tracks/stored-track';
import { MasterStatus, Mp4SupportStatus, StoredStaticRendition } from '../static-renditions/stored-static-rendition';

export type AssetStatus = 'preparing' | 'ready' | 'errored';

/**
 * An input as stored: the settings applied to it (spec 2.2), as given (track names filled in): the
 * main input's url (or a clip's `svc://assets/{id}` with its times), then any watermark or track inputs.
 */
export interface StoredInput {
  url?: string;
  /** A direct upload's file in the object store (never shown in the API). */
  object_key?: string;
  overlay_settings?: assets.OverlaySettings;
  generated_subtitles?: assets.GeneratedSubtitleSettings[];
  start_time?: number;
  end_time?: number;
  type?: string;
  text_type?: string;
  language_code?: string;
  name?: string;
  closed_captions?: boolean;
  passthrough?: string;
}

@Entity({ schema: SCHEMA, name: 'assets' })
export class AssetEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ type: 'text' })
  status!: AssetStatus;

  @Column({ type: 'jsonb' })
  inputs!: StoredInput[];

  @Column({ type: 'text', nullable: true })
  passthrough!: string | null;

  @Column({ name: 'max_resolution_tier', type: 'text' })
  maxResolutionTier!: string;

  @Column({ name: 'encoding_tier', type: 'text' })
  encodingTier!: string;

  @Column({ name: 'video_quality', type: 'text' })
  videoQuality!: string;

  @Column({ name: 'mp4_support', type: 'text' })
  mp4Support!: string;

  @Column({ name: 'master_access', type: 'text' })
  masterAccess!: string;

  @Column({ name: 'normalize_audio', type: 'boolean' })
  normalizeAudio!: boolean;

  @Column({ type: 'boolean' })
  test!: boolean;

  @Column({ name: 'ingest_type', type: 'text' })
  ingestType!: string;

  @Column({ name: 'upload_id', type: 'text', nullable: true })
  uploadId!: string | null;

  @Column({ name: 'live_stream_id', type: 'text', nullable: true })
  liveStreamId!: string | null;

  /** Clips: the asset cut from, and the cut in its seconds (null for other assets). */
  @Column({ name: 'source_asset_id', type: 'text', nullable: true })
  sourceAssetId!: string | null;

  @Column({ name: 'clip_start_time', type: 'double precision', nullable: true })
  clipStartTime!: number | null;

  @Column({ name: 'clip_end_time', type: 'double precision', nullable: true })
  clipEndTime!: number | null;

  // what the probe found (null until RecordProbe)
  @Column({ type: 'double precision', nullable: true })
  duration!: number | null;

  @Column({ name: 'max_stored_resolution', type: 'text', nullable: true })
  maxStoredResolution!: string | null;

  @Column({ name: 'resolution_tier', type: 'text', nullable: true })
  resolutionTier!: string | null;

  @Column({ name: 'max_stored_frame_rate', type: 'double precision', nullable: true })
  maxStoredFrameRate!: number | null;

  @Column({ name: 'aspect_ratio', type: 'text', nullable: true })
  aspectRatio!: string | null;

  /** Tracks as the proto carries them, each with the id this service gave it; those made on request with their source. */
  @Column({ type: 'jsonb' })
  tracks!: StoredTrack[];

  /** Null or `{}` means a standard input. */
  @Column({ name: 'non_standard_input_reasons', type: 'jsonb', nullable: true })
  nonStandardInputReasons!: Record<string, string> | null;

  /** Null until the probe: `GET …/input-info` is then an empty list. */
  @Column({ name: 'input_info', type: 'jsonb', nullable: true })
  inputInfo!: assets.InputInfo[] | null;

  @Column({ type: 'jsonb', nullable: true })
  errors!: assets.AssetErrors | null;

  /** Live recordings: their spans of content and slate (null for other assets). */
  @Column({ name: 'recording_times', type: 'jsonb', nullable: true })
  recordingTimes!: assets.RecordingTime[] | null;

  /** Static MP4/M4A renditions: mp4_support's once made, the Static Renditions API's from their request on. */
  @Column({ name: 'static_renditions', type: 'jsonb' })
  staticRenditions!: StoredStaticRendition[];

  /** mp4_support's files as a whole; null while mp4_support is `none`. */
  @Column({ name: 'static_renditions_status', type: 'text', nullable: true })
  staticRenditionsStatus!: Mp4SupportStatus | null;

  /** The temporary master MP4; null while master_access is `none`. */
  @Column({ name: 'master_status', type: 'text', nullable: true })
  masterStatus!: MasterStatus | null;

  /** Ready masters: the random token of the URL, the URL and when it stops working. */
  @Column({ name: 'master_token', type: 'text', nullable: true })
  masterToken!: string | null;

  @Column({ name: 'master_url', type: 'text', nullable: true })
  masterUrl!: string | null;

  @Column({ name: 'master_expires_at', type: 'timestamptz', nullable: true })
  masterExpiresAt!: Date | null;

  /** Mux's thumbnail_time (seconds, as given: it may exceed a duration learnt later); null when not set. */
  @Column({ name: 'thumbnail_time', type: 'double precision', nullable: true })
  thumbnailTime!: number | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  /** Null until a change that emits video.asset.updated (PATCH, playback id added or removed). */
  @Column({ name: 'updated_at', type: 'timestamptz', nullable: true })
  updatedAt!: Date | null;
}
