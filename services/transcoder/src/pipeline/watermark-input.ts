import { join } from 'node:path';
import { assets } from '@platform/proto';
import { buildProbeArgs, LadderOverlay } from '../media/ffmpeg-args';
import { overlayImageSize, UNREADABLE_OVERLAY } from '../media/overlay';
import { FfprobeOutput } from '../media/probe.types';
import { InputFiles } from './input-files';
import { InputError, JobContext } from './job-context';
import { MediaProcessError, MediaRunner } from '@platform/media';

/** The asset's watermarks: the inputs after the first with `overlay_settings`, in order (later ones on top). */
export function watermarkInputsOf(spec: assets.IngestSpec): assets.AssetInput[] {
  return spec.input.filter((input, i) => i > 0 && input.overlay_settings !== undefined);
}

/**
 * The watermark images on local disk, checked (PNG, JPEG or WebP, at most 4096x4096; otherwise an
 * InputError naming the problem, and the asset errors). The ingest phase downloads them through the
 * outbound guard and keeps them for the ladder phase, which takes the kept copies (or downloads again).
 */
export class WatermarkInput {
  constructor(private readonly inputs: InputFiles) {}

  async prepare(ctx: JobContext, spec: assets.IngestSpec, runner: MediaRunner, phase: 'ingest' | 'ladder'): Promise<LadderOverlay[]> {
    const overlays: LadderOverlay[] = [];
    for (const [n, input] of watermarkInputsOf(spec).entries()) overlays.push(await this.prepareOne(ctx, input, n, runner, phase));
    return overlays;
  }

  private async prepareOne(ctx: JobContext, input: assets.AssetInput, n: number, runner: MediaRunner, phase: 'ingest' | 'ladder'): Promise<LadderOverlay> {
    const file = join(ctx.workDir, n === 0 ? 'overlay' : `overlay-${n}`);
    const kept = phase === 'ladder' && (await this.inputs.fetchKeptOverlay(ctx.assetId, n, file));
    if (!kept) await this.inputs.fetchOverlay(input, file, ctx.signal);
    const checked = overlayImageSize(await this.probe(runner, file, ctx));
    if ('problem' in checked) throw new InputError([checked.problem]);
    if (phase === 'ingest') await this.inputs.keepOverlay(ctx.assetId, n, file);
    return { image: file, imageSize: checked.size, settings: input.overlay_settings ?? {} };
  }

  private async probe(runner: MediaRunner, file: string, ctx: JobContext): Promise<FfprobeOutput> {
    try {
      return await runner.probeJson<FfprobeOutput>(buildProbeArgs(file), { signal: ctx.signal, onSpawn: (pid) => ctx.onChild(pid) });
    } catch (err) {
      // ffprobe refusing the file is its verdict on it; a kill or a failed start is not
      if (err instanceof MediaProcessError && err.exitCode !== null) throw new InputError([UNREADABLE_OVERLAY]);
      throw err;
    }
  }
}
