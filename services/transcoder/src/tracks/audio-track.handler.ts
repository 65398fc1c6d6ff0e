import { mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { Inject, Injectable } from '@nestjs/common';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import { assetKeys, OBJECT_STORE, ObjectStore, trackPaths } from '@platform/storage';
import { buildProbeArgs } from '../media/ffmpeg-args';
import { MediaTools } from '../media/media-tools';
import { FfprobeOutput } from '../media/probe.types';
import { buildAudioRenditionArgs, TRACK_AUDIO } from '../media/track-args';
import { TaskEntity } from '../tasks/task.entity';
import { TaskContext, TaskHandler, TaskOutcome } from '../tasks/task-handler';
import { StoredRenditions } from './stored-renditions';
import { downloadTrackFile } from './track-download';
import { TRACK_PROCESSING, TrackProcessing } from './track-processing';
import { giveUpTrack, runTrackTask, TrackInputError, trackTriggers } from './track-task';
import { MediaProcessError, MediaRunner } from '@platform/media';

/**
 * Kind `audio_track`: an alternate audio track (an input with `type: audio`, or POST …/tracks). The
 * audio file is fetched through the outbound guard, checked to hold audio, encoded to AAC as the
 * ladder's audio, padded with silence or cut to the video's duration, and segmented like the video on
 * the video's MPEG-TS timeline (`audio-{id}/`), which the playback host lists in the AUDIO group.
 */
@Injectable()
export class AudioTrackHandler implements TaskHandler {
  readonly kind = 'audio_track';
  readonly afterLadder = true;
  readonly triggers = trackTriggers((t) => t.type === 'audio' && t.primary === false);

  constructor(
    @Inject(TRACK_PROCESSING) private readonly tracks: TrackProcessing,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
    @Inject(MediaTools) private readonly tools: MediaTools,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
  ) {}

  run(ctx: TaskContext): Promise<TaskOutcome> {
    return runTrackTask(ctx, { tracks: this.tracks, store: this.store }, async (spec) => {
      if (!spec.url) throw new TrackInputError(['The audio track has no file URL.']);
      const { runner } = await this.tools.get();
      const run = { signal: ctx.signal, onSpawn: (pid: number) => ctx.onChild(pid) };
      const source = path.join(ctx.workDir, 'source');
      await downloadTrackFile(this.config, spec.url, source, ctx.signal);
      await checkAudio(runner, source, run);

      const timeline = await new StoredRenditions(this.store, runner).videoTimeline(ctx.assetId, ctx.workDir, run);
      if (timeline.spans.length > 1)
        throw new TrackInputError(
          ['The asset’s video has interruptions (a live recording reconnected), and an alternate audio track cannot follow them.'],
          'not_supported',
        );
      const duration = spec.asset_duration ?? timeline.spans[0].duration;
      const segmentSeconds = segmentLength(timeline.spans[0].entries.map((e) => e.duration));
      const outputDir = path.join(ctx.workDir, 'rendition');
      await mkdir(outputDir);
      await runner.ffmpeg(buildAudioRenditionArgs(source, { outputDir, durationSeconds: duration, timelineStart: timeline.starts[0], segmentSeconds }), {
        ...run,
        durationSeconds: duration,
      });
      await this.upload(ctx, outputDir);
      return { duration: Math.round(duration * 1000) / 1000, maxChannels: TRACK_AUDIO.channels };
    });
  }

  giveUp(task: TaskEntity, message: string): Promise<void> {
    return giveUpTrack(this.tracks, task, message);
  }

  /** Segments first, the playlist last. */
  private async upload(ctx: TaskContext, dir: string): Promise<void> {
    const folder = trackPaths.rendition('audio', ctx.target);
    await ctx.checkpoint();
    for (const name of (await readdir(dir)).filter((n) => n.endsWith('.ts')).sort()) {
      await this.store.putFile(assetKeys.hls(ctx.assetId, `${folder}/${name}`), path.join(dir, name));
    }
    await ctx.checkpoint();
    await this.store.putFile(assetKeys.hls(ctx.assetId, trackPaths.playlist('audio', ctx.target)), path.join(dir, 'index.m3u8'));
  }
}

/** The file must be media with an audio stream (a video file's audio is fine). */
async function checkAudio(runner: MediaRunner, file: string, run: { signal: AbortSignal; onSpawn: (pid: number) => void }): Promise<void> {
  let probe: FfprobeOutput;
  try {
    probe = await runner.probeJson<FfprobeOutput>(buildProbeArgs(file), run);
  } catch (err) {
    if (err instanceof MediaProcessError) throw new TrackInputError(['The audio file could not be read as media.']);
    throw err;
  }
  if (!(probe.streams ?? []).some((s) => s.codec_type === 'audio')) throw new TrackInputError(['The audio file has no audio stream.']);
}

/** The video's segment length (its first segment's, when there are more): the audio is cut at the same times; one segment for a short video. */
export function segmentLength(durations: readonly number[]): number {
  if (durations.length > 1) return Math.max(1, Math.round(durations[0]));
  return Math.ceil(durations[0] ?? 0) + 1;
}
