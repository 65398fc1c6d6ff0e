import { Inject, Injectable, Logger } from '@nestjs/common';
import { assetKeys, OBJECT_STORE, ObjectStore } from '@platform/storage';
import { MediaTools } from '../media/media-tools';
import { masterSource } from '../media/stored-renditions';
import { isRefusal } from '../pipeline/asset-processing';
import { TaskEntity } from '../tasks/task.entity';
import { TaskContext, TaskHandler, TaskOutcome, trigger } from '../tasks/task-handler';
import { WAIT_SECONDS } from './static-rendition.handler';
import { StaticFileMaker } from './static-file-maker';
import { STATIC_RENDITION_WORK, StaticRenditionWorkPort } from './static-rendition-work.port';
import { StoredHls } from './stored-hls';

/**
 * The temporary master MP4 (master_access `temporary`), once the ladder is stored: the highest-quality
 * stored rendition (the stream-copied `source` of a standard input, else the top of the ladder)
 * remuxed into a faststart MP4, checked, stored at `assets/{id}/master/master.mp4` and reported; the
 * assets service then gives it its URL. Asked again (`master.preparing`), the task starts over.
 */
@Injectable()
export class MasterHandler implements TaskHandler {
  readonly kind = 'master';
  readonly afterLadder = true;
  readonly triggers = [trigger({ type: 'video.asset.master.preparing', assetId: (e) => e.object.id, cancel: () => [''], queue: () => [''] })];
  private readonly logger = new Logger('MasterAccess');

  constructor(
    @Inject(STATIC_RENDITION_WORK) private readonly work: StaticRenditionWorkPort,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
    @Inject(MediaTools) private readonly media: Pick<MediaTools, 'get'>,
  ) {}

  async run(ctx: TaskContext): Promise<TaskOutcome> {
    const plan = await this.work.planMaster(ctx.assetId);
    if (!plan) return { status: 'cancelled', reason: 'the asset was deleted' };
    if (plan.action === 'wait') return { status: 'later', delaySeconds: WAIT_SECONDS, reason: plan.reason };
    if (plan.action !== 'make') return { status: 'cancelled', reason: plan.reason };
    const { runner } = await this.media.get();
    const hls = new StoredHls(this.store, ctx.assetId, ctx.workDir, ctx.signal);
    const variant = masterSource(await hls.variants(), await hls.sourceKept());
    if (!variant) throw new Error('no stored rendition to make the master of');
    const made = await new StaticFileMaker(runner, ctx).master(await hls.fetch(variant));
    const key = assetKeys.master(ctx.assetId);
    await ctx.checkpoint();
    await this.store.putFile(key, made.path);
    await ctx.checkpoint();
    try {
      await this.work.recordMaster({ asset_id: ctx.assetId, status: 'ready', error_message: '' });
    } catch (err) {
      if (!isRefusal(err)) throw err;
      await this.store.deletePrefix(key);
      return { status: 'cancelled', reason: 'the master is no longer asked for' };
    }
    this.logger.log(`asset ${ctx.assetId}: master stored (remux of ${variant}, ${made.facts.seconds.toFixed(1)} s)`);
    return { status: 'done' };
  }

  async giveUp(task: TaskEntity, message: string): Promise<void> {
    const plan = await this.work.planMaster(task.assetId);
    if (plan?.action !== 'make') return;
    await this.work.recordMaster({ asset_id: task.assetId, status: 'errored', error_message: message });
  }
}
