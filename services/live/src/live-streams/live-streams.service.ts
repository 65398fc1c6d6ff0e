import { randomBytes, randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '@platform/errors';
import { Emit, UnitOfWork } from '@platform/events';
import { newId } from '@platform/ids';
import { assets, live } from '@platform/proto';
import { EntityManager } from 'typeorm';
import { TranscriptionVocabulariesService } from '../transcription-vocabularies/transcription-vocabularies.service';
import { ASSETS_PORT, AssetsPort } from './assets-port';
import { GeneratedSubtitles, GeneratedTrackStatuses, generatedTextTracks } from './generated-subtitles';
import { LiveStreamEntity, LiveStreamStatus, SimulcastTargetEntity } from './live-stream.entity';
import { emitLiveStreamEvent, LIVE_STREAM_EVENTS, LiveStreamEventType } from './live-stream-events';
import { toLiveStreamMessage } from './live-stream.mapper';
import { LiveStreamChanges, LiveStreamRecord, LiveStreamRepository } from './live-stream.repository';
import {
  checkMaxContinuousDuration,
  checkPassthrough,
  checkPlaybackPolicies,
  checkReconnectWindow,
  checkSimulcastTarget,
  checkSlateUrl,
  defaultReconnectWindow,
  latencyModeOf,
  MAX_CONTINUOUS_MAX,
  throwIfInvalid,
  validEmbeddedSubtitles,
  validGeneratedSubtitles,
} from './live-stream-settings';

export const DEFAULT_LIMIT = 25;
const STATUSES: readonly LiveStreamStatus[] = ['active', 'idle', 'disabled'];

/** A stream key: a credential, 128 random bits, in the shape of Mux's (a UUID). */
export const newStreamKey = (): string => randomUUID();
const newSrtPassphrase = (): string => randomBytes(24).toString('base64url');

/**
 * Live streams as the gateway sees them (spec 2.3, 4.3). Every change writes its event with it
 * (outbox). The gateway validates first; the rules are checked again here.
 */
@Injectable()
export class LiveStreamsService {
  constructor(
    @Inject(LiveStreamRepository) private readonly streams: LiveStreamRepository,
    @Inject(UnitOfWork) private readonly unitOfWork: UnitOfWork,
    @Inject(ASSETS_PORT) private readonly assets: AssetsPort,
    @Inject(TranscriptionVocabulariesService) private readonly vocabularies: TranscriptionVocabulariesService,
  ) {}

  async create(r: live.CreateLiveStreamRequest): Promise<live.LiveStream> {
    const invalid: string[] = [];
    const latencyMode = latencyModeOf(r.latency_mode, r.reduced_latency, invalid);
    checkPlaybackPolicies(r.playback_policy ?? [], invalid);
    checkReconnectWindow(r.reconnect_window, invalid);
    checkMaxContinuousDuration(r.max_continuous_duration, invalid);
    checkPassthrough('passthrough', r.passthrough, invalid);
    checkSlateUrl(r.reconnect_slate_url, invalid);
    const embedded = validEmbeddedSubtitles(r.embedded_subtitles ?? [], invalid);
    const generated = validGeneratedSubtitles(r.generated_subtitles ?? [], invalid);
    (r.simulcast_targets ?? []).forEach((t, i) => checkSimulcastTarget(t, `simulcast_targets[${i}]`, invalid));
    throwIfInvalid(invalid);
    await this.checkVocabularies(generated);
    const id = newId();
    const settings = r.new_asset_settings ? (JSON.parse(JSON.stringify(r.new_asset_settings)) as assets.CreateAssetRequest) : null;
    if (settings) await this.checkAssetSettings(id, settings, r.test === true);

    const now = new Date();
    const stream: LiveStreamEntity = {
      id,
      streamKey: newStreamKey(),
      srtPassphrase: newSrtPassphrase(),
      status: 'idle',
      activeIngestProtocol: null,
      activeAssetId: null,
      recentAssetIds: [],
      newAssetSettings: settings,
      passthrough: r.passthrough === undefined || r.passthrough === '' ? null : r.passthrough,
      audioOnly: r.audio_only === true,
      embeddedSubtitles: embedded,
      generatedSubtitles: generated,
      reconnectWindow: r.reconnect_window ?? defaultReconnectWindow(latencyMode),
      useSlateForStandardLatency: r.use_slate_for_standard_latency === true,
      reconnectSlateUrl: r.reconnect_slate_url ? r.reconnect_slate_url : null,
      latencyMode,
      test: r.test === true,
      maxContinuousDuration: r.max_continuous_duration ?? MAX_CONTINUOUS_MAX,
      completeRequestedAt: null,
      createdAt: now,
      updatedAt: null,
    };
    const record: LiveStreamRecord = {
      stream,
      playbackIds: (r.playback_policy ?? []).map((policy, i) => ({
        id: newId(),
        liveStreamId: id,
        policy: policy as 'public' | 'signed',
        createdAt: new Date(now.getTime() + i),
      })),
      targets: (r.simulcast_targets ?? []).map((t, i) => newTarget(id, t, new Date(now.getTime() + i))),
    };
    await this.unitOfWork.run(async (manager, emit) => {
      await this.streams.insert(manager, record);
      emitLiveStreamEvent(emit, LIVE_STREAM_EVENTS.created, record);
    });
    return toLiveStreamMessage(record);
  }

  async get(id: string): Promise<live.LiveStream> {
    const stream = await this.streams.findById(id);
    if (!stream) throw notFound();
    return toLiveStreamMessage(await this.streams.record(stream));
  }

  async list(r: live.ListLiveStreamsRequest): Promise<live.LiveStreamList> {
    const limit = r.limit > 0 ? r.limit : DEFAULT_LIMIT;
    const page = r.page > 0 ? r.page : 1;
    if (r.status !== undefined && !STATUSES.includes(r.status as LiveStreamStatus))
      throw DomainError.invalid('status: must be one of "active", "idle", "disabled"');
    const streams = await this.streams.list({ limit, offset: (page - 1) * limit, streamKey: r.stream_key, status: r.status as LiveStreamStatus | undefined });
    return { items: await Promise.all(streams.map(async (s) => toLiveStreamMessage(await this.streams.record(s)))) };
  }

  /** PATCH: passthrough (empty clears), latency_mode, reconnect_window, slate settings, max_continuous_duration. */
  async update(r: live.UpdateLiveStreamRequest): Promise<live.LiveStream> {
    const invalid: string[] = [];
    if (r.latency_mode !== undefined) latencyModeOf(r.latency_mode, undefined, invalid);
    checkReconnectWindow(r.reconnect_window, invalid);
    checkMaxContinuousDuration(r.max_continuous_duration, invalid);
    checkPassthrough('passthrough', r.passthrough, invalid);
    checkSlateUrl(r.reconnect_slate_url, invalid);
    throwIfInvalid(invalid);
    const changes: LiveStreamChanges = {
      ...(r.passthrough !== undefined ? { passthrough: r.passthrough === '' ? null : r.passthrough } : {}),
      ...(r.latency_mode !== undefined ? { latencyMode: r.latency_mode as LiveStreamEntity['latencyMode'] } : {}),
      ...(r.reconnect_window !== undefined ? { reconnectWindow: r.reconnect_window } : {}),
      ...(r.use_slate_for_standard_latency !== undefined ? { useSlateForStandardLatency: r.use_slate_for_standard_latency } : {}),
      ...(r.reconnect_slate_url !== undefined ? { reconnectSlateUrl: r.reconnect_slate_url === '' ? null : r.reconnect_slate_url } : {}),
      ...(r.max_continuous_duration !== undefined ? { maxContinuousDuration: r.max_continuous_duration } : {}),
    };
    return this.change(r.id, LIVE_STREAM_EVENTS.updated, () => changes);
  }

  async updateEmbeddedSubtitles(r: live.UpdateEmbeddedSubtitlesRequest): Promise<live.LiveStream> {
    const invalid: string[] = [];
    const embeddedSubtitles = validEmbeddedSubtitles(r.embedded_subtitles ?? [], invalid);
    throwIfInvalid(invalid);
    return this.change(r.id, LIVE_STREAM_EVENTS.updated, () => ({ embeddedSubtitles }));
  }

  /** At most one item; an empty list removes generated subtitles. */
  async updateGeneratedSubtitles(r: live.UpdateGeneratedSubtitlesRequest): Promise<live.LiveStream> {
    const invalid: string[] = [];
    const generatedSubtitles = validGeneratedSubtitles(r.generated_subtitles ?? [], invalid);
    throwIfInvalid(invalid);
    await this.checkVocabularies(generatedSubtitles);
    return this.change(r.id, LIVE_STREAM_EVENTS.updated, () => ({ generatedSubtitles }));
  }

  /** A new key; the old one is refused at once (the ingest looks keys up on every connect). */
  async resetStreamKey(id: string): Promise<live.LiveStream> {
    return this.change(id, LIVE_STREAM_EVENTS.updated, () => ({ streamKey: newStreamKey() }));
  }

  /** `disabled`: the ingest refuses the key until enabled (an active session is ended by the ingest). */
  async disable(id: string): Promise<void> {
    await this.change(id, LIVE_STREAM_EVENTS.disabled, (s) => (s.status === 'disabled' ? undefined : { status: 'disabled', activeIngestProtocol: null }));
  }

  /** `disabled` → `idle` (the encoder may connect again); any other status is left as it is. */
  async enable(id: string): Promise<void> {
    await this.change(id, LIVE_STREAM_EVENTS.enabled, (s) => (s.status === 'disabled' ? { status: 'idle' } : undefined));
  }

  /**
   * Ends the recording now (spec 4.3): the ingest, which checks every second, closes the recording
   * (EXT-X-ENDLIST, the asset ready, the stream idle) and drops the encoder 60 s later. A stream
   * with no recording under way has nothing to end.
   */
  async complete(id: string): Promise<void> {
    await this.unitOfWork.run(async (manager) => {
      const stream = await this.streams.lockById(manager, id);
      if (!stream) throw notFound();
      if (stream.activeAssetId && !stream.completeRequestedAt) await this.streams.update(manager, id, { completeRequestedAt: new Date() });
    });
  }

  /**
   * An encoder asks to publish with `key`: the stream, or why it is refused (unknown key, disabled).
   * The old key of a reset finds nothing.
   */
  async authorizePublish(key: string): Promise<{ stream: LiveStreamEntity } | { refused: string }> {
    const [stream] = await this.streams.list({ limit: 1, offset: 0, streamKey: key });
    if (!stream) return { refused: 'unknown stream key' };
    if (stream.status === 'disabled') return { refused: 'the live stream is disabled' };
    return { stream };
  }

  /**
   * Why a running session of `key`, begun at `startedAt`, must end now, or undefined when it may go
   * on: the key was reset, the stream disabled or deleted, or the session reached
   * `max_continuous_duration`. A test stream is disabled after 5 minutes live (Mux: "the test live
   * stream is disabled after the stream is active for 5 mins"): `disable` is then set.
   */
  async sessionEnd(id: string, key: string, startedAt: Date, now = new Date()): Promise<{ reason: string; disable?: boolean } | undefined> {
    const stream = await this.streams.findById(id);
    if (!stream) return { reason: 'the live stream was deleted' };
    if (stream.status === 'disabled') return { reason: 'the live stream was disabled' };
    if (stream.streamKey !== key) return { reason: 'the stream key was reset' };
    if (stream.completeRequestedAt && now.getTime() - stream.completeRequestedAt.getTime() >= COMPLETE_DROP_SECONDS * 1000) {
      return { reason: 'the live stream was completed 60 s ago' };
    }
    const limit = sessionLimitSeconds(stream);
    if (now.getTime() - startedAt.getTime() < limit * 1000) return undefined;
    const testLimit = stream.test && limit === TEST_STREAM_SECONDS;
    return { reason: testLimit ? 'a test stream runs at most 5 minutes' : `the session reached max_continuous_duration (${limit} s)`, disable: testLimit };
  }

  /** The asset a new encoder session records into (`preparing`, `live_stream_id`, the stream's settings). */
  async createRecordingAsset(stream: LiveStreamEntity, protocol: 'rtmp' | 'srt'): Promise<string> {
    const settings = stream.newAssetSettings ?? { input: [], playback_policy: [] };
    const asset = await this.assets.createAsset({
      ...settings,
      input: [...(settings.input ?? [])],
      playback_policy: [...(settings.playback_policy ?? [])],
      live_stream_id: stream.id,
      ingest_type: protocol === 'srt' ? 'live_srt' : 'live_rtmp',
      test: stream.test || settings.test === true,
    });
    return asset.id;
  }

  /**
   * A recording of a stream with generated subtitles starts with its two generated text tracks
   * (spec 2.3), so `generated_live` is there while the stream is live.
   */
  async addGeneratedTracks(assetId: string, subtitles: GeneratedSubtitles, statuses: GeneratedTrackStatuses): Promise<void> {
    await this.assets.recordProbe({
      asset_id: assetId,
      tracks: generatedTextTracks(subtitles, statuses),
      non_standard_input_reasons: {},
      input_info: [],
      recording_times: [],
    });
  }

  /** A track made after its asset (generated_live_final) is finished. */
  async setTrackStatus(assetId: string, trackId: string, status: 'ready' | 'errored'): Promise<void> {
    await this.assets.setTrackStatus(assetId, trackId, status);
  }

  /**
   * The recording's probe (spec 3: the session's asset becomes an on-demand asset): its fields,
   * tracks (the generated subtitle tracks it started with, a text track per caption channel found)
   * and `recording_times`. Returns the text tracks as stored, so their files can be written under their ids.
   */
  async recordRecording(assetId: string, summary: RecordingFacts): Promise<assets.Track[]> {
    const tracks = await this.assets.recordProbe(recordProbeRequest(assetId, summary));
    return tracks.filter((t) => t.type === 'text');
  }

  /** The recorded asset is `ready`, once its files are all stored. */
  async markRecordingReady(assetId: string): Promise<void> {
    await this.assets.markReady(assetId);
  }

  /**
   * An encoder session began: `active` (spec 3) recording into `assetId` (`active_asset_id`, last
   * of `recent_asset_ids`), with video.live_stream.connected, .recording and .active.
   */
  async markActive(id: string, protocol: 'rtmp' | 'srt', assetId?: string, reconnected = false): Promise<void> {
    await this.unitOfWork.run(async (manager, emit) => {
      const stream = await this.streams.lockById(manager, id);
      if (!stream || stream.status === 'disabled') return;
      if (reconnected) {
        // inside the reconnect window: the same recording goes on
        const again = await this.streams.update(manager, id, { status: 'active', activeIngestProtocol: protocol, updatedAt: new Date() });
        emitLiveStreamEvent(emit, LIVE_STREAM_EVENTS.connected, await this.streams.record(again, manager));
        return;
      }
      const recording = assetId
        ? { activeAssetId: assetId, recentAssetIds: [...stream.recentAssetIds, assetId].slice(-RECENT_ASSETS), completeRequestedAt: null }
        : {};
      const updated = await this.streams.update(manager, id, { status: 'active', activeIngestProtocol: protocol, ...recording, updatedAt: new Date() });
      const record = await this.streams.record(updated, manager);
      emitLiveStreamEvent(emit, LIVE_STREAM_EVENTS.connected, record);
      if (assetId) emitLiveStreamEvent(emit, LIVE_STREAM_EVENTS.recording, record);
      emitLiveStreamEvent(emit, LIVE_STREAM_EVENTS.active, record);
    });
  }

  /**
   * The encoder session ended: video.live_stream.disconnected, then `idle` with video.live_stream.idle.
   * A stream disabled while live stays disabled (disconnected only). The reconnect window comes
   * with recording.
   */
  async markEnded(id: string): Promise<void> {
    await this.unitOfWork.run(async (manager, emit) => {
      const stream = await this.streams.lockById(manager, id);
      if (!stream) return;
      if (stream.status !== 'active') {
        const ended = stream.activeAssetId ? await this.streams.update(manager, id, { activeAssetId: null, activeIngestProtocol: null }) : stream;
        emitLiveStreamEvent(emit, LIVE_STREAM_EVENTS.disconnected, await this.streams.record(ended, manager));
        return;
      }
      const updated = await this.streams.update(manager, id, { status: 'idle', activeIngestProtocol: null, activeAssetId: null, updatedAt: new Date() });
      const record = await this.streams.record(updated, manager);
      emitLiveStreamEvent(emit, LIVE_STREAM_EVENTS.disconnected, record);
      emitLiveStreamEvent(emit, LIVE_STREAM_EVENTS.idle, record);
    });
  }

  /** Whether `complete` asked to end the recording under way (the ingest then closes it). */
  async completionRequested(id: string): Promise<boolean> {
    const stream = await this.streams.findById(id);
    return stream !== null && stream.completeRequestedAt !== null && stream.activeAssetId !== null;
  }

  /** The stream as the ingest needs it (reconnect window, status), or null once deleted. */
  findForIngest(id: string): Promise<LiveStreamEntity | null> {
    return this.streams.findById(id);
  }

  /** The encoder left, the reconnect window is open: video.live_stream.disconnected, the stream stays `active`. */
  async markDisconnected(id: string): Promise<void> {
    await this.unitOfWork.run(async (manager, emit) => {
      const stream = await this.streams.lockById(manager, id);
      if (!stream) return;
      emitLiveStreamEvent(emit, LIVE_STREAM_EVENTS.disconnected, await this.streams.record(stream, manager));
    });
  }

  /** The reconnect window passed: `idle` with video.live_stream.idle (a disabled stream stays disabled). */
  async markIdle(id: string): Promise<void> {
    await this.unitOfWork.run(async (manager, emit) => {
      const stream = await this.streams.lockById(manager, id);
      if (!stream) return;
      if (stream.status !== 'active') {
        if (stream.activeAssetId) await this.streams.update(manager, id, { activeAssetId: null, activeIngestProtocol: null });
        return;
      }
      const updated = await this.streams.update(manager, id, { status: 'idle', activeIngestProtocol: null, activeAssetId: null, updatedAt: new Date() });
      emitLiveStreamEvent(emit, LIVE_STREAM_EVENTS.idle, await this.streams.record(updated, manager));
    });
  }

  /**
   * Removes a deleted vocabulary's id from every stream that names it (spec 4.8), each change with
   * its event, all in one transaction with the record that `handled` (the consumer's event) was
   * processed: a redelivered event changes nothing.
   */
  async forgetVocabulary(vocabularyId: string, handled: { consumer: string; eventId: string }): Promise<void> {
    const ids = await this.streams.findIdsNamingVocabulary(vocabularyId);
    await this.unitOfWork.runOnce(handled.consumer, handled.eventId, async (manager, emit) => {
      for (const id of ids) {
        await this.changeLocked(manager, emit, id, LIVE_STREAM_EVENTS.updated, (stream) => {
          if (!stream.generatedSubtitles.some((g) => g.transcription_vocabulary_ids.includes(vocabularyId))) return undefined;
          return {
            generatedSubtitles: stream.generatedSubtitles.map((g) => ({
              ...g,
              transcription_vocabulary_ids: g.transcription_vocabulary_ids.filter((v) => v !== vocabularyId),
            })),
          };
        });
      }
    });
  }

  /** Deletes the stream with its playback ids (they stop resolving at once) and simulcast targets. */
  async delete(id: string): Promise<void> {
    await this.unitOfWork.run(async (manager, emit) => {
      const stream = await this.streams.lockById(manager, id);
      if (!stream) throw notFound();
      const record = await this.streams.record(stream, manager);
      await this.streams.delete(manager, id);
      emitLiveStreamEvent(emit, LIVE_STREAM_EVENTS.deleted, record);
    });
  }

  /** One change under the stream's lock, with its event; `changes` giving undefined changes nothing (no event). */
  private change(id: string, event: LiveStreamEventType, changes: (stream: LiveStreamEntity) => LiveStreamChanges | undefined): Promise<live.LiveStream> {
    return this.unitOfWork.run(async (manager, emit) => {
      const changed = await this.changeLocked(manager, emit, id, event, changes);
      if (!changed) throw notFound();
      return changed;
    });
  }

  /** `change` inside a transaction already open; undefined when the stream is gone. */
  private async changeLocked(
    manager: EntityManager,
    emit: Emit,
    id: string,
    event: LiveStreamEventType,
    changes: (stream: LiveStreamEntity) => LiveStreamChanges | undefined,
  ): Promise<live.LiveStream | undefined> {
    const stream = await this.streams.lockById(manager, id);
    if (!stream) return undefined;
    const wanted = changes(stream);
    if (!wanted) return toLiveStreamMessage(await this.streams.record(stream, manager));
    const updated = await this.streams.update(manager, id, { ...wanted, updatedAt: new Date() });
    const record = await this.streams.record(updated, manager);
    emitLiveStreamEvent(emit, event, record);
    return toLiveStreamMessage(record);
  }

  private async checkVocabularies(generated: live.GeneratedSubtitle[]): Promise<void> {
    const missing: string[] = [];
    for (const [i, item] of generated.entries()) {
      for (const vocabularyId of item.transcription_vocabulary_ids) {
        try {
          await this.vocabularies.get(vocabularyId);
        } catch (err) {
          if (err instanceof DomainError && err.code === 'NOT_FOUND')
            missing.push(`generated_subtitles[${i}].transcription_vocabulary_ids: no transcription vocabulary ${vocabularyId}`);
          else throw err;
        }
      }
    }
    throwIfInvalid(missing);
  }

  private async checkAssetSettings(id: string, settings: assets.CreateAssetRequest, test: boolean): Promise<void> {
    try {
      await this.assets.checkSettings({
        ...settings,
        input: [...(settings.input ?? [])],
        playback_policy: [...(settings.playback_policy ?? [])],
        live_stream_id: id,
        ingest_type: 'live_rtmp',
        test: test || settings.test === true,
      });
    } catch (err) {
      if (err instanceof DomainError)
        throw new DomainError(
          err.code,
          err.messages.map((m) => `new_asset_settings.${m}`),
        );
      throw err;
    }
  }
}

/** `complete` closes the encoder connection this long after it was called (spec 4.3). */
export const COMPLETE_DROP_SECONDS = 60;

/** How many recent recordings `recent_asset_ids` keeps. */
const RECENT_ASSETS = 10;

/** What a finished recording is: its length and the tracks read from its first segment. */
export interface RecordingFacts {
  duration: number;
  /** Spec 2.1's recording_times: the spans of content and slate. */
  recordingTimes?: assets.RecordingTime[];
  /** Caption channels found in the video (CEA-608): one text track each. */
  captions?: Array<{ name: string; languageCode: string; passthrough?: string }>;
  /** The generated subtitle tracks the recording started with (they keep their ids: text tracks come first). */
  generated?: { subtitles: GeneratedSubtitles; statuses: GeneratedTrackStatuses };
  video?: { width: number; height: number; frameRate?: number };
  audio?: { channels: number };
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/** RecordProbe of a recording: the asset fields of spec 2.1 from what the packager read. */
export function recordProbeRequest(assetId: string, facts: RecordingFacts): assets.RecordProbeRequest {
  const tracks: assets.Track[] = [];
  const { video, audio, duration } = facts;
  if (video)
    tracks.push({
      id: '',
      type: 'video',
      duration,
      max_width: video.width,
      max_height: video.height,
      ...(video.frameRate ? { max_frame_rate: video.frameRate } : {}),
    });
  if (audio) tracks.push({ id: '', type: 'audio', duration, max_channels: audio.channels, primary: true });
  if (facts.generated) tracks.push(...generatedTextTracks(facts.generated.subtitles, facts.generated.statuses));
  for (const c of facts.captions ?? []) {
    tracks.push({
      id: '',
      type: 'text',
      text_type: 'subtitles',
      text_source: 'embedded',
      closed_captions: true,
      language_code: c.languageCode,
      name: c.name,
      status: 'ready',
      ...(c.passthrough ? { passthrough: c.passthrough } : {}),
    });
  }
  const pixels = video ? video.width * video.height : 0;
  const height = video ? Math.min(video.width, video.height) : 0;
  const divisor = video ? gcd(video.width, video.height) || 1 : 1;
  return {
    asset_id: assetId,
    duration,
    max_stored_resolution: !video ? 'Audio only' : height < 720 ? 'SD' : height < 1080 ? 'HD' : height < 2160 ? 'FHD' : 'UHD',
    resolution_tier: !video ? 'audio-only' : pixels <= 921_600 ? '720p' : pixels <= 2_073_600 ? '1080p' : pixels <= 4_194_304 ? '1440p' : '2160p',
    ...(video?.frameRate ? { max_stored_frame_rate: video.frameRate } : {}),
    ...(video ? { aspect_ratio: `${video.width / divisor}:${video.height / divisor}` } : {}),
    tracks,
    non_standard_input_reasons: {},
    input_info: [],
    recording_times: facts.recordingTimes ?? [],
  };
}

/** Test streams run at most 5 minutes (Mux); every stream at most its max_continuous_duration. */
export const TEST_STREAM_SECONDS = 300;

export function sessionLimitSeconds(stream: Pick<LiveStreamEntity, 'maxContinuousDuration' | 'test'>): number {
  return stream.test ? Math.min(stream.maxContinuousDuration, TEST_STREAM_SECONDS) : stream.maxContinuousDuration;
}

export function newTarget(liveStreamId: string, t: live.SimulcastTargetInput, createdAt: Date): SimulcastTargetEntity {
  return {
    id: newId(),
    liveStreamId,
    passthrough: t.passthrough === undefined || t.passthrough === '' ? null : t.passthrough,
    status: 'idle',
    streamKey: t.stream_key === undefined || t.stream_key === '' ? null : t.stream_key,
    url: t.url,
    errorSeverity: null,
    createdAt,
  };
}

export function notFound(): DomainError {
  return DomainError.notFound('Live stream');
}
