import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '@platform/errors';
import { UnitOfWork } from '@platform/events';
import { assets } from '@platform/proto';
import { emitTrackEvent, emitWarningEvent, TRACK_EVENTS } from '../assets/asset-events';
import { toAssetMessage } from '../assets/asset.mapper';
import { AssetRepository } from '../assets/asset.repository';
import { notFound } from '../assets/assets.service';
import { PlaybackIdRepository } from '../playback-ids/playback-id.repository';
import { checkErrors, checkWarning } from '../processing/probe-fields';
import { isPrimaryAudio, publicTrack, StoredTrack } from './stored-track';

/**
 * What the transcoder's track tasks and the live ingest ask and report about tracks made after their
 * asset (internal RPCs): what a task makes, and how a track ended.
 */
@Injectable()
export class TrackProcessingService {
  constructor(
    @Inject(AssetRepository) private readonly assets: AssetRepository,
    @Inject(PlaybackIdRepository) private readonly playbackIds: PlaybackIdRepository,
    @Inject(UnitOfWork) private readonly unitOfWork: UnitOfWork,
  ) {}

  /** The track, what it is made from, and the asset's state; NOT_FOUND once the asset or the track is gone (the task is cancelled). */
  async getTrackSpec(request: assets.TrackRequest): Promise<assets.TrackSpec> {
    const asset = await this.assets.findById(request.asset_id);
    if (!asset) throw notFound();
    const track = asset.tracks.find((t) => t.id === request.track_id);
    if (!track) throw DomainError.notFound('Track');
    const spec: assets.TrackSpec = { asset_id: asset.id, asset_status: asset.status, track: publicTrack(track), audio_primary: false };
    if (asset.duration !== null) spec.asset_duration = asset.duration;
    if (track.source?.url) spec.url = track.source.url;
    const audio = heardAudio(asset.tracks, track);
    if (audio) {
      spec.audio_track_id = audio.id;
      spec.audio_primary = isPrimaryAudio(audio);
    }
    return spec;
  }

  /**
   * A track made after its asset (uploaded and generated tracks, a live recording's generated_live_final
   * subtitles) is finished: `ready` (with an audio track's duration and channels, and a warning such as
   * the cues of a file left out, sent as video.asset.warning) or `errored` (with its `error`), with
   * video.asset.track.ready / .errored. A repeat changes nothing.
   */
  async setTrackStatus(request: assets.SetTrackStatusRequest): Promise<assets.Asset> {
    if (request.status !== 'ready' && request.status !== 'errored') throw DomainError.invalid('status: must be ready or errored');
    const error = request.status === 'errored' && request.error ? checkErrors(request.error) : undefined;
    const warning = request.status === 'ready' && request.warning ? checkWarning(request.warning) : undefined;
    return this.unitOfWork.run(async (manager, emit) => {
      const asset = await this.assets.lockById(manager, request.asset_id);
      if (!asset) throw notFound();
      const track = asset.tracks.find((t) => t.id === request.track_id);
      if (!track) throw DomainError.notFound('Track');
      const playbackIds = await this.playbackIds.findByAssetId(asset.id, manager);
      if (track.status === request.status) return toAssetMessage(asset, playbackIds);
      const finished = finishedTrack(track, request, error);
      const updated = await this.assets.update(manager, asset.id, { tracks: asset.tracks.map((t) => (t.id === track.id ? finished : t)) });
      if (!updated) throw notFound();
      emitTrackEvent(emit, request.status === 'ready' ? TRACK_EVENTS.ready : TRACK_EVENTS.errored, updated, finished);
      if (warning) emitWarningEvent(emit, updated, playbackIds, warning);
      return toAssetMessage(updated, playbackIds);
    });
  }
}

function finishedTrack(track: StoredTrack, request: assets.SetTrackStatusRequest, error: assets.AssetErrors | undefined): StoredTrack {
  const { error: _previous, ...rest } = track;
  const finished: StoredTrack = { ...rest, status: request.status };
  if (error) finished.error = error;
  if (request.status === 'ready' && track.type === 'audio') {
    if (request.duration !== undefined) finished.duration = request.duration;
    if (request.max_channels !== undefined) finished.max_channels = request.max_channels;
  }
  return finished;
}

/** The audio track generated subtitles hear: the primary one, or the alternate track named by the source. */
function heardAudio(tracks: readonly StoredTrack[], track: StoredTrack): StoredTrack | undefined {
  const audio = track.source?.audio;
  if (audio === undefined) return undefined;
  return audio === 'primary' ? tracks.find(isPrimaryAudio) : tracks.find((t) => t.id === audio && t.type === 'audio');
}
