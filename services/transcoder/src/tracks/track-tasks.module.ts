import { Module } from '@nestjs/common';
import { PipelineModule } from '../pipeline/pipeline.module';
import { AudioTrackHandler } from './audio-track.handler';
import { GeneratedSubtitlesHandler } from './generated-subtitles.handler';
import { TextTrackHandler } from './text-track.handler';
import { GrpcTrackProcessing, TRACK_PROCESSING } from './track-processing';

/** The asset task handlers of tracks (text, alternate audio, generated subtitles) and the assets service port they report through. */
@Module({
  imports: [PipelineModule],
  providers: [TextTrackHandler, AudioTrackHandler, GeneratedSubtitlesHandler, { provide: TRACK_PROCESSING, useClass: GrpcTrackProcessing }],
  exports: [TextTrackHandler, AudioTrackHandler, GeneratedSubtitlesHandler],
})
export class TrackTasksModule {}
