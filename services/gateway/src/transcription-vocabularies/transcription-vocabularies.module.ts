import { Module } from '@nestjs/common';
import { live } from '@platform/proto';
import { serviceClientProvider } from '../grpc-clients/service-client';
import { TRANSCRIPTION_VOCABULARIES_CLIENT, TranscriptionVocabulariesController } from './transcription-vocabularies.controller';

@Module({
  controllers: [TranscriptionVocabulariesController],
  providers: [serviceClientProvider(TRANSCRIPTION_VOCABULARIES_CLIENT, 'live', live.TRANSCRIPTION_VOCABULARIES_SERVICE_NAME)],
})
export class TranscriptionVocabulariesModule {}
