import { randomBytes, randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { passthroughProblems } from '@platform/api-rules';
import { DomainError } from '@platform/errors';
import { Emit, UnitOfWork } from '@platform/events';
import { newId } from '@platform/ids';
import { assets, live } from '@platform/proto';
import { EntityManager } from 'typeorm';
import { TranscriptionVocabulariesService } from '../transcription-vocabularies/transcription-vocabularies.service';
import { ASSETS_PORT, AssetsPort } from './assets-port';
import { LiveStreamEntity, LiveStreamStatus, SimulcastTargetEntity } from './live-stream.entity';
import { emitLiveStreamEvent, LIVE_STREAM_EVENTS, LiveStreamEventType } from './live-stream-events';
import { toLiveStreamMessage } from './live-stream.mapper';
import { LiveStreamReferences } from './live-stream-references';
import { sessionStateOf, sessionStep } from './session-machine';
import { OutboundPolicy } from './outbound-policy';
import { LiveStreamChanges, LiveStreamRecord, LiveStreamRepository } from './live-stream.repository';
import {
  checkMaxContinuousDuration,
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
    @Inject(TranscriptionVocabulariesService) vocabularies: TranscriptionVocabulariesService,
    @Inject(OutboundPolicy) private readonly outbound: OutboundPolicy,
  ) {
    this.checks = new LiveStreamReferences(assets, vocabularies);
  }

  private readonly checks: LiveStreamReferences;

  async create(r: live.CreateLiveStreamRequest): Promise<live.LiveStream> {
    const invalid: string[] = [];
    const latencyMode = latencyModeOf(r.latency_mode, r.reduced_latency, invalid);
    checkPlaybackPolicies(r.playback_policy ?? [], invalid);
    checkReconnectWindow(r.reconnect_window, invalid);
    checkMaxContinuousDuration(r.max_continuous_duration, invalid);
    invalid.push(...passthroughProblems(r.passthrough));
    checkSlateUrl(r.reconnect_slate_url, invalid, this.outbound);
    const embedded = validEmbeddedSubtitles(r.embedded_subtitles ?? [], invalid);
    const generated = validGeneratedSubtitles(r.generated_subtitles ?? [], invalid);
    (r.simulcast_targets ?? []).forEach((t, i) => checkSimulcastTarget(t, `simulcast_targets[${i}]`, invalid, this.outbound));
    throwIfInvalid(invalid);
    await this.checks.vocabularies(generated);
    const id = newId();
    const settings = r.new_asset_settings ? (JSON.parse(JSON.stringify(r.new_asset_settings)) as assets.CreateAssetRequest) : null;
    if (settings) await this.checks.assetSettings(id, settings, r.test === true);

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
      ingestOwner: null,
      ingestLeaseUntil: null,
      disconnectedAt: null,
      ingestHandoverAt: null,
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
    invalid.push(...passthroughProblems(r.passthrough));
    checkSlateUrl(r.reconnect_slate_url, invalid, this.outbound);
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
    await this.checks.vocabularies(generatedSubtitles);
    return this.change(r.id, LIVE_STREAM_EVENTS.updated, () => ({ generatedSubtitles }));
  }

  /**
   * The Static Renditions API renditions of the stream's next recordings (Mux's SDK
   * `updateNewAssetSettingsStaticRenditions`), replacing those it had, checked as asset settings by the
   * assets service (a resolution it does not know, or beside mp4_support, is refused); `[]` removes them.
   * The same list again changes nothing (no event).
   */
  async updateNewAssetStaticRenditions(r: live.UpdateNewAssetStaticRenditionsRequest): Promise<live.LiveStream> {
    const stream = await this.streams.findById(r.id);
    if (!stream) throw notFound();
    const settings = { ...(stream.newAssetSettings ?? { input: [], playback_policy: [] }), static_renditions: [...(r.static_renditions ?? [])] };
    await this.checks.assetSettings(r.id, settings, stream.test);
    const same = (s: LiveStreamEntity) => JSON.stringify(s.newAssetSettings?.static_renditions ?? []) === JSON.stringify(settings.static_renditions);
    return this.change(r.id, LIVE_STREAM_EVENTS.updated, (s) =>
      same(s)
        ? undefined
        : { newAssetSettings: { ...(s.newAssetSettings ?? { input: [], playback_policy: [] }), static_renditions: settings.static_renditions } },
    );
  }

  /** A new key; the old one is refused at once (the ingest looks keys up on every connect). */
  async resetStreamKey(id: string): Promise<live.LiveStream> {
    return this.change(id, LIVE_STREAM_EVENTS.updated, () => ({ streamKey: newStreamKey() }));
  }

  /** `disabled`: the ingest refuses the key until enabled (an active session is ended by the ingest). */
  async disable(id: string): Promise<void> {
    await this.change(id, LIVE_STREAM_EVENTS.disabled, (s) => {
      const step = sessionStep(sessionStateOf(s), { on: 'disable' });
      return step.events.includes('disabled') ? { status: step.next.status, activeIngestProtocol: null } : undefined;
    });
  }

  /** `disabled` → `idle` (the encoder may connect again); any other status is left as it is. */
  async enable(id: string): Promise<void> {
    await this.change(id, LIVE_STREAM_EVENTS.enabled, (s) => {
      const step = sessionStep(sessionStateOf(s), { on: 'enable' });
      return step.events.includes('enabled') ? { status: step.next.status } : undefined;
    });
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
      const ends = sessionStep(sessionStateOf(stream), { on: 'complete' }).actions.includes('close-recording');
      if (ends && !stream.completeRequestedAt) await this.streams.update(manager, id, { completeRequestedAt: new Date() });
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
