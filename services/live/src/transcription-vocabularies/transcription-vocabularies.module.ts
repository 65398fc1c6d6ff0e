import { Module } from '@nestjs/common';
import { TranscriptionVocabularyRepository } from './transcription-vocabulary.repository';
import { TranscriptionVocabulariesGrpcController } from './transcription-vocabularies.grpc-controller';
import { TranscriptionVocabulariesService } from './transcription-vocabularies.service';

@Module({
  controllers: [TranscriptionVocabulariesGrpcController],
  providers: [TranscriptionVocabulariesService, TranscriptionVocabularyRepository],
  // live streams will read a vocabulary's phrases when generated subtitles start
  exports: [TranscriptionVocabulariesService],
})
export class TranscriptionVocabulariesModule {}
