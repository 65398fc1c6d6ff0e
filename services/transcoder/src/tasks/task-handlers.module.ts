import { Module } from '@nestjs/common';
import { PipelineModule } from '../pipeline/pipeline.module';
import { MasterHandler } from '../static-renditions/master.handler';
import { StaticRenditionHandler } from '../static-renditions/static-rendition.handler';
import { StaticRenditionsModule } from '../static-renditions/static-renditions.module';
import { AudioTrackHandler } from '../tracks/audio-track.handler';
import { GeneratedSubtitlesHandler } from '../tracks/generated-subtitles.handler';
import { TextTrackHandler } from '../tracks/text-track.handler';
import { TrackTasksModule } from '../tracks/track-tasks.module';
import { TASK_HANDLERS, TaskHandler } from './task-handler';

/**
 * The kinds of asset tasks this worker runs: each handler is a provider here and is listed in
 * `inject`, in the order they are tried (kinds are distinct). The pipeline module gives handlers the
 * assets service port and the media tools.
 */
@Module({
  imports: [PipelineModule, TrackTasksModule, StaticRenditionsModule],
  providers: [
    {
      provide: TASK_HANDLERS,
      inject: [TextTrackHandler, AudioTrackHandler, GeneratedSubtitlesHandler, StaticRenditionHandler, MasterHandler],
      useFactory: (...handlers: TaskHandler[]): TaskHandler[] => handlers,
    },
  ],
  exports: [TASK_HANDLERS],
})
export class TaskHandlersModule {}
