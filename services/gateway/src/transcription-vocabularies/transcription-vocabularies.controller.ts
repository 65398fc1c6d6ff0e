import { Controller, Delete, Get, HttpCode, Inject, Param, Post, Put } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { live } from '@platform/proto';
import { firstValueFrom } from 'rxjs';
import { Paging } from '../validation/paging';
import { ZodBody, ZodQuery, ZodResponse } from '../validation/zod-decorators';
import {
  TranscriptionVocabularyBody,
  transcriptionVocabularyBody,
  transcriptionVocabularyListQuery,
  transcriptionVocabularyListResponse,
  transcriptionVocabularyResponse,
} from './transcription-vocabularies.schemas';
import { toTranscriptionVocabulary } from '@platform/api-shapes';
import { toTranscriptionVocabularyInput } from './transcription-vocabulary.mapper';

export const TRANSCRIPTION_VOCABULARIES_CLIENT = Symbol('TranscriptionVocabulariesServiceClient');

/** Spec 4.8. */
@ApiTags('Transcription vocabularies')
@Controller('video/v1/transcription-vocabularies')
export class TranscriptionVocabulariesController {
  constructor(@Inject(TRANSCRIPTION_VOCABULARIES_CLIENT) private readonly vocabularies: live.TranscriptionVocabulariesServiceClient) {}

  @Post()
  @ApiOperation({ summary: 'Create a transcription vocabulary' })
  @ZodResponse(201, 'The new vocabulary', transcriptionVocabularyResponse)
  async create(@ZodBody(transcriptionVocabularyBody) body: TranscriptionVocabularyBody) {
    const created = await firstValueFrom(this.vocabularies.createTranscriptionVocabulary(toTranscriptionVocabularyInput('', body)));
    return { data: toTranscriptionVocabulary(created) };
  }

  @Get()
  @ApiOperation({ summary: 'List transcription vocabularies (at most 10 per page)' })
  @ZodResponse(200, 'A page of vocabularies', transcriptionVocabularyListResponse)
  async list(@ZodQuery(transcriptionVocabularyListQuery) query: Paging) {
    return { data: (await firstValueFrom(this.vocabularies.listTranscriptionVocabularies(query))).items.map(toTranscriptionVocabulary) };
  }

  @Get(':TRANSCRIPTION_VOCABULARY_ID')
  @ApiOperation({ summary: 'Retrieve a transcription vocabulary' })
  @ZodResponse(200, 'The vocabulary', transcriptionVocabularyResponse)
  async get(@Param('TRANSCRIPTION_VOCABULARY_ID') id: string) {
    return { data: toTranscriptionVocabulary(await firstValueFrom(this.vocabularies.getTranscriptionVocabulary({ id }))) };
  }

  @Put(':TRANSCRIPTION_VOCABULARY_ID')
  @ApiOperation({ summary: 'Replace the name, phrases and passthrough of a transcription vocabulary' })
  @ZodResponse(200, 'The updated vocabulary', transcriptionVocabularyResponse)
  async update(@Param('TRANSCRIPTION_VOCABULARY_ID') id: string, @ZodBody(transcriptionVocabularyBody) body: TranscriptionVocabularyBody) {
    const updated = await firstValueFrom(this.vocabularies.updateTranscriptionVocabulary(toTranscriptionVocabularyInput(id, body)));
    return { data: toTranscriptionVocabulary(updated) };
  }

  @Delete(':TRANSCRIPTION_VOCABULARY_ID')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a transcription vocabulary' })
  @ZodResponse(204, 'Deleted')
  async delete(@Param('TRANSCRIPTION_VOCABULARY_ID') id: string): Promise<void> {
    await firstValueFrom(this.vocabularies.deleteTranscriptionVocabulary({ id }));
  }
}
