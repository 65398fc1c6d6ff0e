import { Inject, Injectable, Logger } from '@nestjs/common';
import { assets } from '@platform/proto';
import { assetKeys, OBJECT_STORE, ObjectStore } from '@platform/storage';
import { MediaTools } from '../media/media-tools';
import { chooseStaticSource } from '../media/stored-renditions';
import { isRefusal } from '../pipeline/asset-processing';
import { TaskEntity } from '../tasks/task.entity';
import { TaskContext, TaskHandler, TaskOutcome, trigger } from '../tasks/task-handler';
import { StaticFileMaker } from './static-file-maker';
import { STATIC_RENDITION_WORK, StaticRenditionWorkPort } from './static-rendition-work.port';
import { StoredHls } from './stored-hls';

/** The target of mp4_support's files; other targets are ids of Static Renditions API renditions. */
export const MP4_SUPPORT_TARGET = 'mp4_support';
/** While the asset is not ingested (a live recording until it ends), ask again this often. */
export const WAIT_SECONDS = 5;

/**
 * Static MP4/M4A renditions, once the asset's ladder is stored (`afterLadder`): the assets service says
 * which files (`PlanStaticRenditionWork`), each is a remux of the stored rendition of its size (the
 * ladder's own encode) or an encode of a size the ladder lacks, checked, stored at
 * `assets/{id}/static/{name}` and reported with what was read from it. A new mp4_support request restarts
 * the set's task (its trigger cancels and queues it): the assets service, not the event, says what is
 * wanted, so events read out of order cannot lose a request. A report the asset no longer wants is
 * refused: the stored file is removed and the task ends.
 */
@Injectable()
export class StaticRenditionHandler implements TaskHandler {
  readonly kind = 'static_rendition';
  readonly afterLadder = true;
  readonly triggers = [
    trigger({
      type: 'video.asset.static_renditions.preparing',
      assetId: (e) => e.object.id,
      cancel: () => [MP4_SUPPORT_TARGET],
      queue: () => [MP4_SUPPORT_TARGET],
    }),
    trigger({ type: 'video.asset.static_rendition.created', assetId: (e) => e.data.asset_id, queue: (e) => [e.data.id] }),
    trigger({ type: 'video.asset.static_rendition.deleted', assetId: (e) => e.data.asset_id, cancel: (e) => [e.data.id] }),
  ];
  private readonly logger = new Logger('StaticRenditions');

  constructor(
    @Inject(STATIC_RENDITION_WORK) private readonly work: StaticRenditionWorkPort,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
    @Inject(MediaTools) private readonly media: Pick<MediaTools, 'get'>,
  ) {}

  async run(ctx: TaskContext): Promise<TaskOutcome> {
    const plan = await this.work.plan(ctx.assetId, ctx.target);
    if (!plan) return { status: 'cancelled', reason: 'the asset was deleted' };
    if (plan.action === 'wait') return { status: 'later', delaySeconds: WAIT_SECONDS, reason: plan.reason };
    if (plan.action !== 'make') return { status: 'cancelled', reason: plan.reason };
    const { runner } = await this.media.get();
    const hls = new StoredHls(this.store, ctx.assetId, ctx.workDir, ctx.signal);
    const [variants, sourceKept] = await Promise.all([hls.variants(), hls.sourceKept()]);
    const maker = new StaticFileMaker(runner, ctx);
    const started = Date.now();
    for (const file of plan.files) {
      const source = chooseStaticSource({ video: file.video, shortSide: file.short_side }, variants, sourceKept);
      if (!source) throw new Error(`no stored rendition to make ${file.name} of`);
      const made = await maker.staticRendition({ name: file.name, video: file.video, audio: file.audio, source }, await hls.fetch(source.variant));
      const key = assetKeys.staticRendition(ctx.assetId, file.name);
      await ctx.checkpoint();
      await this.store.putFile(key, made.path);
      await ctx.checkpoint();
      const report: assets.RecordStaticRenditionRequest = {
        asset_id: ctx.assetId,
        target: ctx.target,
        name: file.name,
        status: 'ready',
        width: made.facts.width,
        height: made.facts.height,
        bitrate: made.facts.bitrate,
        error_message: '',
      };
      if (!(await this.reported(report, key))) return { status: 'cancelled', reason: `${file.name} is no longer asked for` };
      this.logger.log(`asset ${ctx.assetId}: ${file.name} (${source.kind} of ${source.variant}) stored after ${((Date.now() - started) / 1000).toFixed(2)} s`);
    }
    return { status: 'done' };
  }

  /** A file that failed for good: the first file still to make is errored (mp4_support's set with it). */
  async giveUp(task: TaskEntity, message: string): Promise<void> {
    const plan = await this.work.plan(task.assetId, task.target);
    const file = plan?.action === 'make' ? plan.files[0] : undefined;
    if (!file) return;
    await this.work.record({
      asset_id: task.assetId,
      target: task.target,
      name: file.name,
      status: 'errored',
      width: 0,
      height: 0,
      bitrate: 0,
      error_message: message,
    });
  }

  /** False when the asset refused the report (no longer wanted): the file just stored goes. */
  private async reported(report: assets.RecordStaticRenditionRequest, key: string): Promise<boolean> {
    try {
      await this.work.record(report);
      return true;
    } catch (err) {
      if (!isRefusal(err)) throw err;
      await this.store.deletePrefix(key);
      return false;
    }
  }
}
