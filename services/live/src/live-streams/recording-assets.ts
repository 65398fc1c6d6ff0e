import { Inject, Injectable } from '@nestjs/common';
import { assets } from '@platform/proto';
import { ASSETS_PORT, AssetsPort } from './assets-port';
import { GeneratedSubtitles, GeneratedTrackStatuses, generatedTextTracks } from './generated-subtitles';
import { LiveStreamEntity } from './live-stream.entity';
import { RecordingFacts, recordProbeRequest } from './recording-probe';

/**
 * A live stream's recordings as assets (spec 3: a session's asset is created `preparing` and becomes an
 * on-demand asset): what the ingest asks of the assets service, through its port.
 */
@Injectable()
export class RecordingAssets {
  constructor(@Inject(ASSETS_PORT) private readonly assets: AssetsPort) {}

  /** The asset a new encoder session records into (`preparing`, `live_stream_id`, the stream's settings). */
  async createRecordingAsset(stream: LiveStreamEntity, protocol: 'rtmp' | 'srt'): Promise<string> {
    const settings = stream.newAssetSettings ?? { input: [], playback_policy: [], static_renditions: [] };
    const asset = await this.assets.createAsset({
      ...settings,
      input: [...(settings.input ?? [])],
      playback_policy: [...(settings.playback_policy ?? [])],
      static_renditions: [...(settings.static_renditions ?? [])],
      live_stream_id: stream.id,
      ingest_type: protocol === 'srt' ? 'live_srt' : 'live_rtmp',
      test: stream.test || settings.test === true,
    });
    return asset.id;
  }

  /**
   * A recording of a stream with generated subtitles starts with its two generated text tracks
   * (spec 2.3), so `generated_live` is there while the stream is live.
   */
  async addGeneratedTracks(assetId: string, subtitles: GeneratedSubtitles, statuses: GeneratedTrackStatuses): Promise<void> {
    await this.assets.recordProbe({
      asset_id: assetId,
      tracks: generatedTextTracks(subtitles, statuses),
      non_standard_input_reasons: {},
      input_info: [],
      recording_times: [],
    });
  }

  /** A track made after its asset (generated_live_final) is finished. */
  async setTrackStatus(assetId: string, trackId: string, status: 'ready' | 'errored'): Promise<void> {
    await this.assets.setTrackStatus(assetId, trackId, status);
  }

  /**
   * The recording's probe (spec 3: the session's asset becomes an on-demand asset): its fields,
   * tracks (the generated subtitle tracks it started with, a text track per caption channel found)
   * and `recording_times`. Returns the text tracks as stored, so their files can be written under their ids.
   */
  async recordRecording(assetId: string, summary: RecordingFacts): Promise<assets.Track[]> {
    const tracks = await this.assets.recordProbe(recordProbeRequest(assetId, summary));
    return tracks.filter((t) => t.type === 'text');
  }

  /** The recorded asset is `ready`, once its files are all stored. */
  async markRecordingReady(assetId: string): Promise<void> {
    await this.assets.markReady(assetId);
  }

  /** A recording that holds no media is `errored` with the reason (never left `preparing`). */
  async markRecordingErrored(assetId: string, message: string): Promise<void> {
    await this.assets.markErrored(assetId, { type: 'invalid_input', messages: [message] });
  }
}
