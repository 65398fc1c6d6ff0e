import { Controller, Inject } from '@nestjs/common';
import { common, live } from '@platform/proto';
import { TranscriptionVocabulariesService } from './transcription-vocabularies.service';

@Controller()
@live.TranscriptionVocabulariesServiceControllerMethods()
export class TranscriptionVocabulariesGrpcController implements live.TranscriptionVocabulariesServiceController {
  constructor(@Inject(TranscriptionVocabulariesService) private readonly vocabularies: TranscriptionVocabulariesService) {}

  createTranscriptionVocabulary(request: live.TranscriptionVocabularyInput): Promise<live.TranscriptionVocabulary> {
    return this.vocabularies.create(request);
  }

  getTranscriptionVocabulary(request: common.IdRequest): Promise<live.TranscriptionVocabulary> {
    return this.vocabularies.get(request.id);
  }

  listTranscriptionVocabularies(request: common.PageRequest): Promise<live.TranscriptionVocabularyList> {
    return this.vocabularies.list(request);
  }

  updateTranscriptionVocabulary(request: live.TranscriptionVocabularyInput): Promise<live.TranscriptionVocabulary> {
    return this.vocabularies.update(request);
  }

  deleteTranscriptionVocabulary(request: common.IdRequest): Promise<common.Empty> {
    return this.vocabularies.delete(request.id).then(() => ({}));
  }
}
