import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '@platform/errors';
import { UnitOfWork } from '@platform/events';
import { newId } from '@platform/ids';
import { assets, live } from '@platform/proto';
import { LivePlaybackIdEntity } from './live-stream.entity';
import { emitLiveStreamEvent, LIVE_STREAM_EVENTS } from './live-stream-events';
import { toPlaybackIdMessage } from './live-stream.mapper';
import { LiveStreamRepository } from './live-stream.repository';
import { notFound as streamNotFound } from './live-streams.service';

const POLICIES = ['public', 'signed'];

/** Playback ids of live streams (spec 4.3) and their lookup (4.4); a change emits video.live_stream.updated. */
@Injectable()
export class LiveStreamPlaybackIdsService {
  constructor(
    @Inject(LiveStreamRepository) private readonly streams: LiveStreamRepository,
    @Inject(UnitOfWork) private readonly unitOfWork: UnitOfWork,
  ) {}

  async create(r: live.CreateLiveStreamPlaybackIdRequest): Promise<assets.PlaybackId> {
    if (!POLICIES.includes(r.policy)) throw DomainError.invalid('policy: must be one of "public", "signed"');
    return this.unitOfWork.run(async (manager, emit) => {
      if (!(await this.streams.lockById(manager, r.live_stream_id))) throw streamNotFound();
      const now = new Date();
      const playbackId: LivePlaybackIdEntity = { id: newId(), liveStreamId: r.live_stream_id, policy: r.policy as 'public' | 'signed', createdAt: now };
      await this.streams.insertPlaybackId(manager, playbackId);
      const stream = await this.streams.update(manager, r.live_stream_id, { updatedAt: now });
      emitLiveStreamEvent(emit, LIVE_STREAM_EVENTS.updated, await this.streams.record(stream, manager));
      return toPlaybackIdMessage(playbackId);
    });
  }

  async get(r: live.LiveStreamPlaybackIdRequest): Promise<assets.PlaybackId> {
    const playbackId = await this.streams.findPlaybackId(r.playback_id);
    if (!playbackId || playbackId.liveStreamId !== r.live_stream_id) throw (await this.streams.findById(r.live_stream_id)) ? notFound() : streamNotFound();
    return toPlaybackIdMessage(playbackId);
  }

  /** New playback with it fails at once; ingest goes on. */
  async delete(r: live.LiveStreamPlaybackIdRequest): Promise<void> {
    await this.unitOfWork.run(async (manager, emit) => {
      if (!(await this.streams.lockById(manager, r.live_stream_id))) throw streamNotFound();
      if (!(await this.streams.deletePlaybackId(manager, r.live_stream_id, r.playback_id))) throw notFound();
      const stream = await this.streams.update(manager, r.live_stream_id, { updatedAt: new Date() });
      emitLiveStreamEvent(emit, LIVE_STREAM_EVENTS.updated, await this.streams.record(stream, manager));
    });
  }

  /** The owner of a live stream's playback id (`object.type` `live_stream`), with the stream's status. */
  async lookup(id: string): Promise<assets.PlaybackIdOwner> {
    const playbackId = await this.streams.findPlaybackId(id);
    const stream = playbackId ? await this.streams.findById(playbackId.liveStreamId) : null;
    if (!playbackId || !stream) throw notFound();
    const mediaAssetId = stream.activeAssetId ?? stream.recentAssetIds.at(-1);
    return {
      id: playbackId.id,
      policy: playbackId.policy,
      object: { type: 'live_stream', id: stream.id },
      status: stream.status,
      ...(mediaAssetId ? { media_asset_id: mediaAssetId } : {}),
      // the live edge and recordings play as recorded: no track renditions are added to them
      renditions: [],
    };
  }
}

function notFound(): DomainError {
  return DomainError.notFound('Playback ID');
}
