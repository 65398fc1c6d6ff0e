import { Column, Entity, PrimaryColumn } from 'typeorm';
import { SCHEMA } from '../schema';

@Entity({ schema: SCHEMA, name: 'transcription_vocabularies' })
export class TranscriptionVocabularyEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ type: 'text', nullable: true })
  name!: string | null;

  /** In the order given; 1 to 1000 phrases of 1 to 32 characters. */
  @Column({ type: 'text', array: true })
  phrases!: string[];

  @Column({ type: 'text', nullable: true })
  passthrough!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

/** What create and update write: the fields a PUT replaces as a whole. */
export type TranscriptionVocabularyFields = Pick<TranscriptionVocabularyEntity, 'name' | 'phrases' | 'passthrough'>;
