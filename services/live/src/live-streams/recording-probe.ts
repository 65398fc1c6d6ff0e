import { aspectRatioOf, resolutionTierOfPixels, storedResolutionName } from '@platform/media';
import { assets } from '@platform/proto';
import { GeneratedSubtitles, GeneratedTrackStatuses, generatedTextTracks } from './generated-subtitles';

/** What a finished recording is: its length and the tracks read from its first segment. */
export interface RecordingFacts {
  duration: number;
  /** Spec 2.1's recording_times: the spans of content and slate. */
  recordingTimes?: assets.RecordingTime[];
  /** Caption channels found in the video (CEA-608): one text track each. */
  captions?: Array<{ name: string; languageCode: string; passthrough?: string }>;
  /** The generated subtitle tracks the recording started with (they keep their ids: text tracks come first). */
  generated?: { subtitles: GeneratedSubtitles; statuses: GeneratedTrackStatuses };
  video?: { width: number; height: number; frameRate?: number };
  audio?: { channels: number };
}

/** RecordProbe of a recording: the asset fields of spec 2.1 from what the packager read. */
export function recordProbeRequest(assetId: string, facts: RecordingFacts): assets.RecordProbeRequest {
  const tracks: assets.Track[] = [];
  const { video, audio, duration } = facts;
  if (video)
    tracks.push({
      id: '',
      type: 'video',
      duration,
      max_width: video.width,
      max_height: video.height,
      ...(video.frameRate ? { max_frame_rate: video.frameRate } : {}),
    });
  if (audio) tracks.push({ id: '', type: 'audio', duration, max_channels: audio.channels, primary: true });
  if (facts.generated) tracks.push(...generatedTextTracks(facts.generated.subtitles, facts.generated.statuses));
  for (const c of facts.captions ?? []) {
    tracks.push({
      id: '',
      type: 'text',
      text_type: 'subtitles',
      text_source: 'embedded',
      closed_captions: true,
      language_code: c.languageCode,
      name: c.name,
      status: 'ready',
      ...(c.passthrough ? { passthrough: c.passthrough } : {}),
    });
  }
  const pixels = video ? video.width * video.height : 0;
  return {
    asset_id: assetId,
    duration,
    max_stored_resolution: video ? storedResolutionName(video.width, video.height) : 'Audio only',
    resolution_tier: !video ? 'audio-only' : resolutionTierOfPixels(pixels),
    ...(video?.frameRate ? { max_stored_frame_rate: video.frameRate } : {}),
    ...(video ? { aspect_ratio: aspectRatioOf(video.width, video.height) } : {}),
    tracks,
    non_standard_input_reasons: {},
    input_info: [],
    recording_times: facts.recordingTimes ?? [],
  };
}
