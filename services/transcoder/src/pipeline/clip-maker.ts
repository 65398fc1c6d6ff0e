import { mkdir, open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { assets } from '@platform/proto';
import { ObjectStore } from '@platform/storage';
import { buildClipAudioArgs, buildClipEdgeArgs, buildClipEncodeArgs, buildClipMuxArgs, concatInput } from '../media/clip-args';
import { ClipPlan, ClipPlanError, planClip, planSeconds, SMART_PROFILES } from '../media/clip-plan';
import { MediaToolkit } from '../media/media-tools';
import { FetchedSpans, fetchSpans, findSourceRendition } from './clip-source-media';
import { InputError } from './job-context';
import { StepTimer } from './step-timer';
import { filterPackets, MediaProcessError, programPids, PtsRange, TsFilterReport, VideoPesFilter } from '@platform/media';

export interface ClipRun {
  /** The clip's own asset id (for the log). */
  assetId: string;
  workDir: string;
  signal: AbortSignal;
  onChild(pid: number): void;
}

/** How a clip was made, for the log (and the tests). */
export interface ClipOutcome {
  plan: ClipPlan;
  variant: string;
  /** A smart cut that failed and was encoded instead says why. */
  fellBack?: string;
}

/**
 * Makes a clip's input file from its source asset's stored HLS: the segments the cut needs are fetched
 * and probed, `planClip` picks the path (copy whole GOPs and re-encode the partial GOP at each edge;
 * stream-copy audio-only media; or encode the whole cut) and it is run. A smart cut whose result does
 * not hold exactly the planned frames, or whose ffmpeg fails, is encoded instead. The file is MPEG-TS;
 * the clip then goes through the pipeline as any input does.
 */
export class ClipMaker {
  private readonly logger = new Logger('ClipMaker');

  constructor(private readonly store: ObjectStore) {}

  async make(clip: assets.IngestClip, toolkit: MediaToolkit, output: string, run: ClipRun): Promise<ClipOutcome> {
    const dir = join(run.workDir, 'clip');
    await mkdir(dir, { recursive: true });
    const options = { signal: run.signal, onSpawn: (pid: number) => run.onChild(pid) };
    const timer = new StepTimer();
    const rendition = await findSourceRendition(this.store, clip);
    const media = await fetchSpans(this.store, toolkit.runner, clip, rendition, dir, options);
    timer.mark('fetch + probe');
    const source = { spans: media.spans, video: media.video, hasAudio: media.hasAudio, canSmartCut: !toolkit.features.legacyHlsMuxer };
    let plan: ClipPlan;
    try {
      plan = planClip(source, clip.start_time, clip.end_time);
    } catch (err) {
      if (err instanceof ClipPlanError) throw new InputError([`The clip could not be cut: ${err.message}.`]);
      throw err;
    }
    const outcome: ClipOutcome = { plan, variant: rendition.variant };
    if (plan.path === 'smart') {
      try {
        await this.smartCut(toolkit, plan, media, dir, output, options);
      } catch (err) {
        if (run.signal.aborted || !(err instanceof MediaProcessError || err instanceof SmartCutMismatch)) throw err;
        outcome.fellBack = err.message;
        outcome.plan = { ...planClip({ ...source, canSmartCut: false }, clip.start_time, clip.end_time), reason: `the smart cut failed (${err.message})` };
      }
    }
    const [first] = outcome.plan.spans;
    if (outcome.plan.path === 'audio') await toolkit.runner.ffmpeg(buildClipAudioArgs(spanInput(media, first.span), first.range, output), options);
    if (outcome.plan.path === 'encode') await this.encode(toolkit, outcome.plan, media, output, options);
    timer.mark(outcome.plan.path === plan.path ? 'cut' : 'smart cut, then encode');
    this.logger.log(
      `asset ${run.assetId}: clip of ${clip.source_asset_id} [${clip.start_time}, ${clip.end_time}) from its ${rendition.variant} rendition: ${describe(outcome)}; in ${timer.summary()}`,
    );
    return outcome;
  }

  /**
   * The edges encoded, the whole GOPs between them copied packet for packet (`VideoPesFilter`) and the
   * audio stream-copied, side by side; then the video pieces joined byte for byte (one TS stream, its
   * timestamps running on) and muxed with the audio.
   */
  private async smartCut(toolkit: MediaToolkit, plan: ClipPlan, media: FetchedSpans, dir: string, output: string, run: RunLike): Promise<void> {
    const span = media.spans[plan.spans[0].span];
    const files = span.segments.map((i) => media.files.get(i)!);
    // the edges are written with the source's PIDs, so all the pieces are one TS stream
    const pids = programPids(await readFile(files[0]));
    if (pids.pmtPid === undefined || pids.videoPid === undefined) throw new SmartCutMismatch('the program tables of the source segments were not found');
    const copied = join(dir, 'copied.ts');
    const copy = plan.copy ? copyGops(files, plan.copy, copied) : undefined;
    const edge = async (name: 'head' | 'tail') => {
      const cut = plan[name];
      if (!cut) return undefined;
      // only the edge's GOP is decoded: its packets, cut from its segment like the copied ones
      const gop = join(dir, `${name}-gop.ts`);
      await copyGops([media.files.get(cut.segment)!], cut.gop, gop);
      const file = join(dir, `${name}.ts`);
      const args = buildClipEdgeArgs(gop, file, {
        range: cut.range,
        dtsDelay: cut.dtsDelay,
        profile: SMART_PROFILES[media.video!.profile!],
        pixFmt: media.video!.pixFmt!,
        pmtPid: pids.pmtPid!,
        videoPid: pids.videoPid!,
      });
      await toolkit.runner.ffmpeg(args, run);
      return file;
    };
    const audioFile = join(dir, 'audio.ts');
    const audio = media.hasAudio
      ? toolkit.runner.ffmpeg(buildClipAudioArgs(concatInput(files), plan.spans[0].range, audioFile), run).then(() => audioFile)
      : undefined;
    const work = { head: edge('head'), tail: edge('tail'), copied: copy?.then((r) => r.keptFrames) ?? Promise.resolve(0) };
    await settleAll([work.head, work.tail, work.copied, audio]);
    const [head, tail] = [await work.head, await work.tail];
    // the pieces are one TS stream whose timestamps run on: ffmpeg reads them back to back (concat protocol)
    const pieces = [head, copy ? copied : undefined, tail].filter((f): f is string => f !== undefined);
    const frames = (await work.copied) + (await framesIn(head)) + (await framesIn(tail));
    if (frames !== plan.frames) throw new SmartCutMismatch(`the cut holds ${frames} frames, not the ${plan.frames} planned`);
    await toolkit.runner.ffmpeg(buildClipMuxArgs(concatInput(pieces), media.hasAudio ? audioFile : undefined, output), run);
  }

  private async encode(toolkit: MediaToolkit, plan: ClipPlan, media: FetchedSpans, output: string, run: RunLike): Promise<void> {
    const spans = plan.spans.map((s) => ({ input: spanInput(media, s.span), range: s.range }));
    await toolkit.runner.ffmpeg(buildClipEncodeArgs(spans, { video: media.video !== undefined, audio: media.hasAudio }, output), run);
  }
}

type RunLike = { signal: AbortSignal; onSpawn: (pid: number) => void };

class SmartCutMismatch extends Error {}

const spanInput = (media: FetchedSpans, span: number): string => concatInput(media.spans[span].segments.map((i) => media.files.get(i)!));

/** The video PES packets of `range` from the segment files, in order, written to `output` one segment at a time; the program's PIDs. */
async function copyGops(files: string[], range: PtsRange, output: string): Promise<TsFilterReport> {
  const filter = new VideoPesFilter(range);
  const out = await open(output, 'w');
  try {
    for (const file of files) await out.write(filterPackets(await readFile(file), filter));
  } finally {
    await out.close();
  }
  return filter.report();
}

/** The video frames (PES packets) of an encoded edge; 0 without one. */
async function framesIn(file: string | undefined): Promise<number> {
  if (!file) return 0;
  const filter = new VideoPesFilter({ from: 0, to: Number.MAX_SAFE_INTEGER });
  filterPackets(await readFile(file), filter);
  return filter.report().keptFrames;
}

/** Waits for every piece of work, then throws the first failure (so no ffmpeg is left running when one fails). */
async function settleAll(work: Array<Promise<unknown> | undefined>): Promise<void> {
  const failed = (await Promise.allSettled(work.map((w) => w ?? Promise.resolve()))).find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) throw failed.reason;
}

/** e.g. `smart cut (H.264 with closed GOPs: …): 8.00 s copied, 2.03 s re-encoded, 301 frames`. */
export function describe(outcome: ClipOutcome): string {
  const { plan } = outcome;
  const { copied, encoded } = planSeconds(plan);
  const name = { smart: 'smart cut', audio: 'audio stream copy', encode: 'full encode' }[plan.path];
  return `${name} (${plan.reason}): ${copied.toFixed(2)} s copied, ${encoded.toFixed(2)} s encoded${plan.frames ? `, ${plan.frames} frames` : ''}`;
}
