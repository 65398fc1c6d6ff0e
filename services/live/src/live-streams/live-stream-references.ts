import { DomainError, ErrorCode } from '@platform/errors';
import { assets, live } from '@platform/proto';
import { TranscriptionVocabulariesService } from '../transcription-vocabularies/transcription-vocabularies.service';
import { AssetsPort } from './assets-port';
import { throwIfInvalid } from './live-stream-settings';

/** What a live stream's settings name elsewhere, checked before it is stored: its vocabularies and its recordings' asset settings. */
export class LiveStreamReferences {
  constructor(
    private readonly assets: AssetsPort,
    private readonly vocabularyService: TranscriptionVocabulariesService,
  ) {}

  /** Every vocabulary `generated_subtitles` names exists (a 400 naming each one missing). */
  async vocabularies(generated: live.GeneratedSubtitle[]): Promise<void> {
    const missing: string[] = [];
    for (const [i, item] of generated.entries()) {
      for (const vocabularyId of item.transcription_vocabulary_ids) {
        try {
          await this.vocabularyService.get(vocabularyId);
        } catch (err) {
          if (err instanceof DomainError && err.code === ErrorCode.NOT_FOUND)
            missing.push(`generated_subtitles[${i}].transcription_vocabulary_ids: no transcription vocabulary ${vocabularyId}`);
          else throw err;
        }
      }
    }
    throwIfInvalid(missing);
  }

  /** `new_asset_settings` as the assets service would take them (its 400s prefixed `new_asset_settings.`). */
  async assetSettings(id: string, settings: assets.CreateAssetRequest, test: boolean): Promise<void> {
    try {
      await this.assets.checkSettings({
        ...settings,
        input: [...(settings.input ?? [])],
        playback_policy: [...(settings.playback_policy ?? [])],
        live_stream_id: id,
        ingest_type: 'live_rtmp',
        test: test || settings.test === true,
      });
    } catch (err) {
      if (err instanceof DomainError)
        throw new DomainError(
          err.code,
          err.messages.map((m) => `new_asset_settings.${m}`),
        );
      throw err;
    }
  }
}
