import { EventData } from '@platform/events';
import { assets } from '@platform/proto';
import { assetKeys, ObjectStore, trackPaths } from '@platform/storage';
import { TaskEntity } from '../tasks/task.entity';
import { TaskContext, TaskOutcome, TaskTrigger, trigger } from '../tasks/task-handler';
import { TrackProcessing } from './track-processing';

/** How long a track task waits for its asset to become ready before asking again. */
export const ASSET_NOT_READY_DELAY_SECONDS = 10;

/** A problem with what the user gave (the file, the language): the track is errored with these messages, not retried. */
export class TrackInputError extends Error {
  constructor(
    readonly messages: string[],
    readonly type = 'invalid_input',
  ) {
    super(messages.join(' '));
    this.name = 'TrackInputError';
  }
}

/** What a track's work made, for its `ready`: an audio track's duration and channels, a warning to send. */
export interface TrackMade {
  duration?: number;
  maxChannels?: number;
  warning?: assets.AssetWarning;
}

type TrackEvent = EventData<'video.asset.track.created'>;

/**
 * The triggers of a track kind: `video.asset.track.created` of a track it makes queues a task for that
 * track (the target is the track id), `video.asset.track.deleted` cancels it.
 */
export function trackTriggers(makes: (track: TrackEvent) => boolean): TaskTrigger[] {
  return [
    trigger({ type: 'video.asset.track.created', assetId: (e) => e.data.asset_id, queue: (e) => (makes(e.data) ? [e.data.id] : []) }),
    trigger({ type: 'video.asset.track.deleted', assetId: (e) => e.data.asset_id, cancel: (e) => [e.data.id] }),
  ];
}

/** Where a track's files are, under the asset's `hls/` folder: its whole WebVTT and its rendition folder. */
export function trackFilePrefixes(assetId: string, track: { id: string; type: string }): string[] {
  const type = track.type === 'audio' ? 'audio' : 'text';
  return [
    ...(type === 'text' ? [assetKeys.hls(assetId, trackPaths.textFile(track.id))] : []),
    assetKeys.hls(assetId, `${trackPaths.rendition(type, track.id)}/`),
  ];
}

/**
 * One attempt of a track task, around the work of its kind: the track is asked for (gone: the task is
 * cancelled; no longer `preparing`: nothing to do), waits for its asset to be ready, is made by `make`
 * (a TrackInputError errors the track with its messages), then reported `ready`. A track deleted while
 * it was made has its files removed again.
 */
export async function runTrackTask(
  ctx: TaskContext,
  deps: { tracks: TrackProcessing; store: ObjectStore },
  make: (spec: assets.TrackSpec & { track: assets.Track }) => Promise<TrackMade>,
): Promise<TaskOutcome> {
  const spec = await deps.tracks.getTrackSpec(ctx.assetId, ctx.target);
  if (!spec?.track) return { status: 'cancelled', reason: 'the track or its asset was deleted' };
  if (spec.track.status !== 'preparing') return { status: 'done' };
  if (spec.asset_status === 'preparing') return { status: 'later', delaySeconds: ASSET_NOT_READY_DELAY_SECONDS, reason: 'the asset is not ready yet' };
  if (spec.asset_status !== 'ready') {
    return errorTrack(ctx, deps.tracks, new TrackInputError([`The asset is ${spec.asset_status}, so its track cannot be made.`], 'asset_errored'));
  }
  let made: TrackMade;
  try {
    made = await make({ ...spec, track: spec.track });
  } catch (err) {
    if (err instanceof TrackInputError) return errorTrack(ctx, deps.tracks, err);
    throw err;
  }
  await ctx.checkpoint();
  const answer = await deps.tracks.setTrackStatus({
    asset_id: ctx.assetId,
    track_id: ctx.target,
    status: 'ready',
    ...(made.duration !== undefined ? { duration: made.duration } : {}),
    ...(made.maxChannels !== undefined ? { max_channels: made.maxChannels } : {}),
    ...(made.warning ? { warning: made.warning } : {}),
  });
  if (answer === 'gone') {
    for (const prefix of trackFilePrefixes(ctx.assetId, spec.track)) await deps.store.deletePrefix(prefix);
    return { status: 'cancelled', reason: 'the track was deleted while it was made' };
  }
  return { status: 'done' };
}

async function errorTrack(ctx: TaskContext, tracks: TrackProcessing, err: TrackInputError): Promise<TaskOutcome> {
  await ctx.checkpoint();
  await tracks.setTrackStatus({ asset_id: ctx.assetId, track_id: ctx.target, status: 'errored', error: { type: err.type, messages: err.messages } });
  return { status: 'errored', error: err.message };
}

/** A track task that failed for good: the track is errored with why. */
export async function giveUpTrack(tracks: TrackProcessing, task: TaskEntity, message: string): Promise<void> {
  await tracks.setTrackStatus({
    asset_id: task.assetId,
    track_id: task.target,
    status: 'errored',
    error: { type: 'track_failed', messages: [`The track could not be made: ${message}`] },
  });
}
