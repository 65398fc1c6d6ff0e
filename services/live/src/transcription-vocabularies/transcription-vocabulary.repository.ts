import { Inject, Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { TranscriptionVocabularyEntity, TranscriptionVocabularyFields } from './transcription-vocabulary.entity';

interface TranscriptionVocabularyRow {
  id: string;
  name: string | null;
  phrases: string[];
  passthrough: string | null;
  created_at: Date;
  updated_at: Date;
}

function fromRow(row: TranscriptionVocabularyRow | undefined): TranscriptionVocabularyEntity | null {
  if (!row) return null;
  return {
    id: row.id,
    name: row.name,
    phrases: row.phrases,
    passthrough: row.passthrough,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Transcription vocabularies in Postgres; a deleted vocabulary's row is gone. */
@Injectable()
export class TranscriptionVocabularyRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async insert(manager: EntityManager, vocabulary: TranscriptionVocabularyEntity): Promise<void> {
    await manager.insert(TranscriptionVocabularyEntity, vocabulary);
  }

  findById(id: string): Promise<TranscriptionVocabularyEntity | null> {
    return this.dataSource.manager.findOne(TranscriptionVocabularyEntity, { where: { id } });
  }

  /** Newest first; `offset` rows skipped. */
  list(limit: number, offset: number): Promise<TranscriptionVocabularyEntity[]> {
    return this.dataSource.manager.find(TranscriptionVocabularyEntity, {
      order: { createdAt: 'DESC', id: 'DESC' },
      take: limit,
      skip: offset,
    });
  }

  /** Replaces name, phrases and passthrough; returns the updated vocabulary, or null when it does not exist. */
  async replace(manager: EntityManager, id: string, fields: TranscriptionVocabularyFields, updatedAt: Date): Promise<TranscriptionVocabularyEntity | null> {
    const result = await manager
      .createQueryBuilder()
      .update(TranscriptionVocabularyEntity)
      .set({ name: fields.name, phrases: fields.phrases, passthrough: fields.passthrough, updatedAt })
      .where('id = :id', { id })
      .returning('*')
      .execute();
    return fromRow((result.raw as TranscriptionVocabularyRow[])[0]);
  }

  /** Deletes the vocabulary; returns it as it was, or null when it does not exist. */
  async delete(manager: EntityManager, id: string): Promise<TranscriptionVocabularyEntity | null> {
    const result = await manager.createQueryBuilder().delete().from(TranscriptionVocabularyEntity).where('id = :id', { id }).returning('*').execute();
    return fromRow((result.raw as TranscriptionVocabularyRow[])[0]);
  }
}
