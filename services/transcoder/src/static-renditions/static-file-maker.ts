import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { readTopLevelBoxes } from '../media/mp4-boxes';
import { FfprobeOutput } from '../media/probe.types';
import { checkStaticFile, StaticFileExpectation, StaticFileFacts } from '../media/static-file-check';
import { buildFileProbeArgs, buildMasterArgs, buildMp4EncodeArgs, buildMp4RemuxArgs } from '../media/static-rendition-args';
import { StaticSource } from '../media/stored-renditions';
import { TaskContext } from '../tasks/task-handler';
import { LocalVariant } from './stored-hls';
import { bitrateFor, MediaRunner } from '@platform/media';

/** A file made and checked, ready to be stored. */
export interface MadeFile {
  path: string;
  facts: StaticFileFacts;
}

/** What to make: a static rendition's name, its streams, and the stored rendition it comes from. */
export interface StaticFileOrder {
  name: string;
  video: boolean;
  audio: boolean;
  source: StaticSource;
}

/**
 * Runs ffmpeg for one file (a remux of a stored rendition, or an encode of a size the ladder lacks),
 * then reads what it wrote (ffprobe, the top-level boxes) and checks it before anything is stored.
 */
export class StaticFileMaker {
  constructor(
    private readonly runner: MediaRunner,
    private readonly ctx: Pick<TaskContext, 'signal' | 'onChild' | 'workDir'>,
  ) {}

  async staticRendition(order: StaticFileOrder, input: LocalVariant): Promise<MadeFile> {
    const path = join(this.ctx.workDir, order.name);
    const { source } = order;
    const args =
      source.kind === 'remux'
        ? buildMp4RemuxArgs(input.playlist, path, { video: order.video, audio: order.audio })
        : buildMp4EncodeArgs(input.playlist, path, {
            width: source.width,
            height: source.height,
            videoBitrate: bitrateFor(source.width * source.height),
            audio: order.audio,
          });
    await this.run(args, input.seconds);
    const video = order.video ? { width: source.width ?? 0, height: source.height ?? 0 } : undefined;
    return this.checked(order.name, path, () => ({ ...(video ? { video } : {}), audio: order.audio, seconds: input.seconds }));
  }

  /** The master MP4: every stream of the rendition copied; checked for what it holds, its length and faststart. */
  async master(input: LocalVariant): Promise<MadeFile> {
    const path = join(this.ctx.workDir, 'master.mp4');
    await this.run(buildMasterArgs(input.playlist, path), input.seconds);
    return this.checked('master.mp4', path, (probe) => {
      const streams = probe.streams ?? [];
      const video = streams.find((s) => s.codec_type === 'video');
      return {
        ...(video ? { video: { width: 0, height: 0 } } : {}),
        audio: streams.some((s) => s.codec_type === 'audio'),
        seconds: input.seconds,
      };
    });
  }

  /** Reads the made file and checks it against what it must be (which may depend on what it holds). */
  private async checked(name: string, path: string, expect: (probe: FfprobeOutput) => StaticFileExpectation): Promise<MadeFile> {
    const [probe, boxes, info] = await Promise.all([this.probe(path), readTopLevelBoxes(path), stat(path)]);
    const expected = expect(probe);
    if (!expected.video && !expected.audio) throw new Error(`${name}: has neither video nor audio`);
    return { path, facts: checkStaticFile(name, probe, boxes, info.size, expected) };
  }

  private run(args: string[], seconds: number): Promise<void> {
    return this.runner.ffmpeg(args, { signal: this.ctx.signal, onSpawn: (pid) => this.ctx.onChild(pid), durationSeconds: seconds });
  }

  private probe(path: string): Promise<FfprobeOutput> {
    return this.runner.probeJson<FfprobeOutput>(buildFileProbeArgs(path), { signal: this.ctx.signal, onSpawn: (pid) => this.ctx.onChild(pid) });
  }
}
