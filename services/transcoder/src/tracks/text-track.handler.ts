import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Inject, Injectable } from '@nestjs/common';
import { describeProblems, readSubtitleFile, SubtitleFileError } from '@platform/captions';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import { OBJECT_STORE, ObjectStore } from '@platform/storage';
import { MediaTools } from '../media/media-tools';
import { TaskEntity } from '../tasks/task.entity';
import { TaskContext, TaskHandler, TaskOutcome } from '../tasks/task-handler';
import { StoredRenditions } from './stored-renditions';
import { downloadTrackFile } from './track-download';
import { storeSubtitles } from './subtitle-rendition';
import { TRACK_PROCESSING, TrackProcessing } from './track-processing';
import { giveUpTrack, runTrackTask, TrackInputError, trackTriggers } from './track-task';

/** Largest subtitle file fetched (a feature film's SRT is well under 1 MiB). */
export const SUBTITLE_FILE_MAX_BYTES = 20 * 1024 * 1024;

/**
 * Kind `text_track`: an uploaded text track (an input with `type: text`, or POST …/tracks). Its SubRip
 * or WebVTT file is fetched through the outbound guard and read as WebVTT (styling kept, bad cues left
 * out and sent as a `text_track_cues_skipped` warning), then stored whole and segmented like the video.
 * A file that is no subtitles, or has no usable cue, errors the track with the reason.
 */
@Injectable()
export class TextTrackHandler implements TaskHandler {
  readonly kind = 'text_track';
  readonly afterLadder = true;
  readonly triggers = trackTriggers((t) => t.type === 'text' && t.text_source === 'uploaded');

  constructor(
    @Inject(TRACK_PROCESSING) private readonly tracks: TrackProcessing,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
    @Inject(MediaTools) private readonly tools: MediaTools,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
  ) {}

  run(ctx: TaskContext): Promise<TaskOutcome> {
    return runTrackTask(ctx, { tracks: this.tracks, store: this.store }, async (spec) => {
      if (!spec.url) throw new TrackInputError(['The text track has no file URL.']);
      const file = path.join(ctx.workDir, 'subtitles');
      await downloadTrackFile(this.config, spec.url, file, ctx.signal, SUBTITLE_FILE_MAX_BYTES);
      const subtitles = read(await readFile(file));
      const renditions = new StoredRenditions(this.store, (await this.tools.get()).runner);
      await storeSubtitles(ctx, { store: this.store, renditions }, subtitles, { onSpawn: (pid: number) => ctx.onChild(pid) });
      if (subtitles.skipped.length === 0) return {};
      const name = spec.track.name ? ` (${spec.track.name})` : '';
      return { warning: { type: 'text_track_cues_skipped', message: `Text track ${ctx.target}${name}: ${describeProblems(subtitles)}`.slice(0, 1000) } };
    });
  }

  giveUp(task: TaskEntity, message: string): Promise<void> {
    return giveUpTrack(this.tracks, task, message);
  }
}

function read(bytes: Buffer) {
  try {
    return readSubtitleFile(bytes);
  } catch (err) {
    if (err instanceof SubtitleFileError) throw new TrackInputError([err.message]);
    throw err;
  }
}
