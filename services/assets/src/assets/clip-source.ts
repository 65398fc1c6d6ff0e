import { DomainError } from '@platform/errors';
import { assetKeys, masterVariantUris, ObjectNotFoundError, ObjectStore, parseMediaPlaylist, playlistSeconds } from '@platform/storage';
import { AssetEntity } from './asset.entity';
import { AssetRepository } from './asset.repository';

/** A clip shorter than this could hold no frame at all (5 fps, the slowest standard input, is 0.2 s a frame). */
export const MIN_CLIP_SECONDS = 0.5;
/** `end_time` may pass the source's duration by this much (durations are rounded). */
const END_SLACK_SECONDS = 0.001;

/** A clip's cut, in seconds of its source, as stored and handed to the transcoder. */
export interface ClipCut {
  sourceAssetId: string;
  startTime: number;
  endTime: number;
}

const isLiveRecording = (asset: AssetEntity): boolean => asset.ingestType === 'live_rtmp' || asset.ingestType === 'live_srt';
const seconds = (value: number): string => `${Math.round(value * 1000) / 1000} s`;

/**
 * The checks of a new clip against its source (spec 2.2: `svc://assets/{id}` with `start_time`, default
 * 0, and `end_time`, default the source's duration). The source must exist and have media: `ready`, or a
 * live stream's recording under way, whose duration is what it has recorded so far (its stored playlist).
 * Every problem is INVALID_PARAMETERS naming the field; nothing is written.
 */
export class ClipSources {
  constructor(
    private readonly assets: Pick<AssetRepository, 'findById'>,
    private readonly store: ObjectStore,
  ) {}

  async resolve(sourceAssetId: string, start: number | undefined, end: number | undefined): Promise<ClipCut> {
    const source = await this.assets.findById(sourceAssetId);
    if (!source) throw DomainError.invalid(`input[0].url: there is no asset ${sourceAssetId} to clip (unknown or deleted)`);
    if (source.status === 'errored') throw DomainError.invalid(`input[0].url: the asset ${sourceAssetId} is errored; it has no media to clip`);
    const live = source.status === 'preparing' && isLiveRecording(source);
    if (source.status === 'preparing' && !live) {
      throw DomainError.invalid(`input[0].url: the asset ${sourceAssetId} is still preparing; clip it once it is ready`);
    }
    const duration = live ? await this.recordedSeconds(source.id) : (source.duration ?? (await this.recordedSeconds(source.id)));
    if (duration <= 0) throw DomainError.invalid(`input[0].url: the live stream's recording ${sourceAssetId} holds no media yet`);
    return { sourceAssetId, ...checkTimes(start ?? 0, end, duration, live) };
  }

  /** The seconds a recording's stored media playlist lists so far (the first variant of its master). */
  private async recordedSeconds(assetId: string): Promise<number> {
    try {
      const [variant] = masterVariantUris((await this.store.getBuffer(assetKeys.hls(assetId, 'master.m3u8'))).toString('utf8'));
      if (!variant) return 0;
      return playlistSeconds(parseMediaPlaylist((await this.store.getBuffer(assetKeys.hls(assetId, variant))).toString('utf8')));
    } catch (err) {
      if (err instanceof ObjectNotFoundError) return 0;
      throw err;
    }
  }
}

/** `start_time` and `end_time` inside the source's `duration` (a live recording: what it holds so far). */
export function checkTimes(start: number, end: number | undefined, duration: number, live: boolean): { startTime: number; endTime: number } {
  const what = live ? `what the live recording holds so far (${seconds(duration)})` : `the source's duration (${seconds(duration)})`;
  const invalid: string[] = [];
  if (start >= duration) invalid.push(`input[0].start_time: must be less than ${what}`);
  if (end !== undefined && end > duration + END_SLACK_SECONDS) invalid.push(`input[0].end_time: must be at most ${what}`);
  const endTime = Math.min(end ?? duration, duration);
  if (invalid.length === 0 && endTime - start < MIN_CLIP_SECONDS) {
    invalid.push(
      `input[0].end_time: a clip lasts at least ${MIN_CLIP_SECONDS} s (end_time ${seconds(endTime)} is ${seconds(endTime - start)} after start_time)`,
    );
  }
  if (invalid.length > 0) throw DomainError.invalid(...invalid);
  return { startTime: start, endTime };
}
