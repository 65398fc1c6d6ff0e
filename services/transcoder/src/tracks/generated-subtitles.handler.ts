import { createReadStream, createWriteStream } from 'node:fs';
import { truncate } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { missingSpeechModel, PCM_BYTES_PER_SECOND, recognizerAvailable, speechModelFor, speechPython, transcribePcmFile } from '@platform/captions';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import { assets } from '@platform/proto';
import { OBJECT_STORE, ObjectStore, trackPaths } from '@platform/storage';
import { MediaTools } from '../media/media-tools';
import { buildPcmFileArgs } from '../media/track-args';
import { TaskEntity } from '../tasks/task.entity';
import { TaskContext, TaskHandler, TaskOutcome } from '../tasks/task-handler';
import { StoredRenditions } from './stored-renditions';
import { PlaylistSpan, spansOf } from './stored-playlists';
import { storeSubtitles } from './subtitle-rendition';
import { TRACK_PROCESSING, TrackProcessing } from './track-processing';
import { giveUpTrack, runTrackTask, TrackInputError, trackTriggers } from './track-task';
import { MediaRunner } from '@platform/media';

/** The language's name for messages (`es` → `Spanish`). */
const languageName = (code: string) => {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
};

/**
 * Kind `generated_subtitles`: a `generated_vod` text track (the main input's generated_subtitles, or
 * POST …/generate-subtitles). The audio track it hears is read back from the stored renditions (the
 * primary: the variant with the fewest bytes, its muxed audio; an alternate: its own rendition), each
 * span decoded to the recognizer's PCM and fitted to the span's length (so times stay the asset's),
 * heard whole by the speech recognizer the live service uses (PocketSphinx en-us), and stored as a text
 * track is. A language without a model here errors the track, naming the missing model.
 */
@Injectable()
export class GeneratedSubtitlesHandler implements TaskHandler {
  readonly kind = 'generated_subtitles';
  readonly afterLadder = true;
  readonly triggers = trackTriggers((t) => t.type === 'text' && t.text_source === 'generated_vod');
  private readonly logger = new Logger('GeneratedSubtitles');
  private python?: Promise<string | undefined>;

  constructor(
    @Inject(TRACK_PROCESSING) private readonly tracks: TrackProcessing,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
    @Inject(MediaTools) private readonly tools: MediaTools,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
  ) {}

  run(ctx: TaskContext): Promise<TaskOutcome> {
    return runTrackTask(ctx, { tracks: this.tracks, store: this.store }, async (spec) => {
      const language = spec.track.language_code ?? 'en';
      if (!speechModelFor(language)) throw new TrackInputError([missingSpeechModel(language, languageName(language))], 'not_supported');
      const python = await this.recognizer();
      if (!python)
        throw new TrackInputError(
          [`No speech recognizer is installed here (${speechPython(this.config.media.speechPython)} cannot import pocketsphinx).`],
          'not_supported',
        );
      if (!spec.audio_track_id) throw new TrackInputError(['The asset has no audio track to hear.']);

      const { runner } = await this.tools.get();
      const renditions = new StoredRenditions(this.store, runner);
      const started = Date.now();
      const pcm = await this.pcmOf(ctx, runner, renditions, spec);
      const { cues, seconds } = await transcribePcmFile(python, pcm, ctx.signal);
      const took = (Date.now() - started) / 1000;
      this.logger.log(
        `track ${ctx.target}: ${cues.length} cues from ${seconds.toFixed(1)} s of audio in ${took.toFixed(1)} s (${(seconds / took).toFixed(1)}× real time)`,
      );
      await storeSubtitles(ctx, { store: this.store, renditions }, { cues }, { onSpawn: (pid: number) => ctx.onChild(pid) });
      return {};
    });
  }

  giveUp(task: TaskEntity, message: string): Promise<void> {
    return giveUpTrack(this.tracks, task, message);
  }

  /** Whether the recognizer runs, found once per process; the Python that runs it. */
  private recognizer(): Promise<string | undefined> {
    const python = speechPython(this.config.media.speechPython);
    this.python ??= recognizerAvailable(python).then((ok) => (ok ? python : undefined));
    return this.python;
  }

  /** The heard audio track as one PCM file on the asset's timeline: each span decoded and fitted to its length. */
  private async pcmOf(ctx: TaskContext, runner: MediaRunner, renditions: StoredRenditions, spec: assets.TrackSpec): Promise<string> {
    const playlist = spec.audio_primary ? await this.smallestVariant(renditions, ctx.assetId) : trackPaths.playlist('audio', spec.audio_track_id!);
    const spans: PlaylistSpan[] = spansOf(await renditions.entries(ctx.assetId, playlist));
    const whole = path.join(ctx.workDir, 'audio.pcm');
    for (const [i, span] of spans.entries()) {
      const media = path.join(ctx.workDir, `span-${i}.ts`);
      const pcm = path.join(ctx.workDir, `span-${i}.pcm`);
      await renditions.fetchSpan(ctx.assetId, span, media, ctx.signal);
      await runner.ffmpeg(buildPcmFileArgs(media, pcm), { signal: ctx.signal, onSpawn: (pid: number) => ctx.onChild(pid), durationSeconds: span.duration });
      await truncate(pcm, Math.round((span.duration * PCM_BYTES_PER_SECOND) / 2) * 2); // cut, or padded with silence, to the span
      await pipeline(createReadStream(pcm), createWriteStream(whole, { flags: 'a' }), { signal: ctx.signal });
    }
    return whole;
  }

  /** The variant with the lowest bit rate: the same muxed audio as every variant, the fewest bytes to fetch. */
  private async smallestVariant(renditions: StoredRenditions, assetId: string): Promise<string> {
    const variants = await renditions.variants(assetId);
    return variants.reduce((a, b) => (b.bandwidth < a.bandwidth ? b : a)).uri;
  }
}
