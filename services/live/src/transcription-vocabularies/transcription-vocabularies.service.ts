import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '@platform/errors';
import { toTranscriptionVocabulary } from '@platform/api-shapes';
import { Emit, EventTypeFor, UnitOfWork } from '@platform/events';
import { newId } from '@platform/ids';
import { common, live } from '@platform/proto';
import { TranscriptionVocabularyEntity } from './transcription-vocabulary.entity';
import { validVocabularyFields } from './transcription-vocabulary-fields';
import { toTranscriptionVocabularyMessage } from './transcription-vocabulary.mapper';
import { TranscriptionVocabularyRepository } from './transcription-vocabulary.repository';

/** Spec 4.8: list `limit` defaults to 10 and may not exceed 10. */
export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 10;

export const TRANSCRIPTION_VOCABULARY_EVENTS = {
  created: 'video.transcription_vocabulary.created',
  updated: 'video.transcription_vocabulary.updated',
  deleted: 'video.transcription_vocabulary.deleted',
} as const;

/**
 * Transcription vocabularies (spec 2.8, 4.8): phrase lists for generated live subtitles.
 * The gateway validates requests first; the rules are checked again here so no caller can
 * store a bad vocabulary. Live streams referencing a vocabulary do not exist yet (see README).
 */
@Injectable()
export class TranscriptionVocabulariesService {
  constructor(
    @Inject(TranscriptionVocabularyRepository) private readonly vocabularies: TranscriptionVocabularyRepository,
    @Inject(UnitOfWork) private readonly unitOfWork: UnitOfWork,
  ) {}

  async create(request: live.TranscriptionVocabularyInput): Promise<live.TranscriptionVocabulary> {
    const fields = validVocabularyFields(request);
    const now = new Date();
    const vocabulary: TranscriptionVocabularyEntity = { id: newId(), ...fields, createdAt: now, updatedAt: now };
    await this.unitOfWork.run(async (manager, emit) => {
      await this.vocabularies.insert(manager, vocabulary);
      emitChange(emit, TRANSCRIPTION_VOCABULARY_EVENTS.created, vocabulary);
    });
    return toTranscriptionVocabularyMessage(vocabulary);
  }

  async get(id: string): Promise<live.TranscriptionVocabulary> {
    const vocabulary = await this.vocabularies.findById(id);
    if (!vocabulary) throw notFound();
    return toTranscriptionVocabularyMessage(vocabulary);
  }

  async list(request: common.PageRequest): Promise<live.TranscriptionVocabularyList> {
    const limit = request.limit > 0 ? request.limit : DEFAULT_LIMIT;
    if (limit > MAX_LIMIT) throw DomainError.invalid(`limit: must be at most ${MAX_LIMIT}`);
    const page = request.page > 0 ? request.page : 1;
    const items = await this.vocabularies.list(limit, (page - 1) * limit);
    return { items: items.map(toTranscriptionVocabularyMessage) };
  }

  /** PUT: name, phrases and passthrough are all replaced; one left out is cleared. */
  async update(request: live.TranscriptionVocabularyInput): Promise<live.TranscriptionVocabulary> {
    const fields = validVocabularyFields(request);
    const updated = await this.unitOfWork.run(async (manager, emit) => {
      const vocabulary = await this.vocabularies.replace(manager, request.id, fields, new Date());
      if (!vocabulary) throw notFound();
      emitChange(emit, TRANSCRIPTION_VOCABULARY_EVENTS.updated, vocabulary);
      return vocabulary;
    });
    return toTranscriptionVocabularyMessage(updated);
  }

  async delete(id: string): Promise<void> {
    await this.unitOfWork.run(async (manager, emit) => {
      const vocabulary = await this.vocabularies.delete(manager, id);
      if (!vocabulary) throw notFound();
      emitChange(emit, TRANSCRIPTION_VOCABULARY_EVENTS.deleted, vocabulary);
    });
  }
}

/** The data is the vocabulary's API body, built by the gateway's own mapper from the same message. */
function emitChange(emit: Emit, type: EventTypeFor<'transcription_vocabulary'>, vocabulary: TranscriptionVocabularyEntity): void {
  emit(type, toTranscriptionVocabulary(toTranscriptionVocabularyMessage(vocabulary)));
}

function notFound(): DomainError {
  return DomainError.notFound('Transcription vocabulary');
}
