import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { interpretProbe, MAX_DURATION_SECONDS } from './interpret-probe';
import { FfprobeOutput, FfprobeStream, ProbedAsset, ProbeResult } from './probe.types';
// Fixtures are real `ffprobe -v error -print_format json -show_format -show_streams` output of clips made
// with ffmpeg 5.1 lavfi testsrc2/sine (see README.md).
const fixture = (name: string) => JSON.parse(readFileSync(join(__dirname, 'fixtures', `${name}.ffprobe.json`), 'utf8')) as FfprobeOutput;
const h264 = fixture('h264_1080p');
const hevc = fixture('hevc_720p');
const sar43 = fixture('sar43_mp3');
const rotated = fixture('rotated');
const audioOnly = fixture('audio_only');
const videoOnly4k = fixture('video_only_4k_422');
const lowFps = fixture('low_fps');

function asset(result: ProbeResult): ProbedAsset {
  if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result.error)}`);
  return result.asset;
}

function withVideo(patch: Partial<FfprobeStream>, format: FfprobeOutput['format'] = h264.format): FfprobeOutput {
  const [video, audio] = h264.streams!;
  return { format, streams: [{ ...video, ...patch }, audio] };
}

/** The same file with another frame size. */
function withSize(probe: FfprobeOutput, width: number, height: number): FfprobeOutput {
  return { ...probe, streams: probe.streams!.map((s) => (s.codec_type === 'video' ? { ...s, width, height } : s)) };
}

describe('interpretProbe on real ffprobe output', () => {
  it('reads a standard 1080p30 H.264/AAC MP4 as a standard 1080p asset', () => {
    const a = asset(interpretProbe(h264));
    expect(a).toEqual({
      duration: 2,
      aspect_ratio: '16:9',
      max_stored_frame_rate: 30,
      resolution_tier: '1080p',
      max_stored_resolution: 'FHD',
      tracks: [
        { type: 'video', duration: 2, max_width: 1920, max_height: 1080, max_frame_rate: 30 },
        { type: 'audio', duration: 2, max_channels: 2, primary: true },
      ],
      input_info: {
        container_format: 'mov,mp4,m4a,3gp,3g2,mj2',
        tracks: [
          { type: 'video', duration: 2, width: 1920, height: 1080, frame_rate: 30, encoding: 'h264' },
          { type: 'audio', duration: 2, encoding: 'aac', sample_rate: 48000, sample_size: 32, channels: 2 },
        ],
      },
      video: { width: 1920, height: 1080, frameRate: 30 },
      hasAudio: true,
      standard: true,
    });
    expect(a).not.toHaveProperty('non_standard_input_reasons');
  });

  it('names the HEVC codec as non-standard and keeps the 720p tier', () => {
    const a = asset(interpretProbe(hevc));
    expect(a.non_standard_input_reasons).toEqual({ video_codec: 'hevc' });
    expect(a.standard).toBe(false);
    expect(a.resolution_tier).toBe('720p');
    expect(a.max_stored_resolution).toBe('HD');
    expect(a.tracks).toEqual([
      { type: 'video', duration: 2, max_width: 1280, max_height: 720, max_frame_rate: 25 },
      { type: 'audio', duration: 2, max_channels: 1, primary: true },
    ]);
  });

  it('applies a 4:3 sample aspect ratio: 640x480 displays as 16:9, and flags the PAR and the MP3 audio', () => {
    const a = asset(interpretProbe(sar43));
    expect(a.aspect_ratio).toBe('16:9');
    expect(a.video).toEqual({ width: 852, height: 480, frameRate: 24 });
    expect(a.max_stored_resolution).toBe('SD');
    expect(a.duration).toBe(2.025);
    expect(a.non_standard_input_reasons).toEqual({ pixel_aspect_ratio: '4:3', audio_codec: 'mp3' });
    // Matroska keeps durations in tags; input-info reports the coded size.
    expect(a.input_info).toEqual({
      container_format: 'matroska,webm',
      tracks: [
        { type: 'video', duration: 2.025, width: 640, height: 480, frame_rate: 24, encoding: 'h264' },
        { type: 'audio', duration: 2.025, encoding: 'mp3', sample_rate: 44100, sample_size: 32, channels: 1 },
      ],
    });
  });

  it('swaps width and height for a 90-degree display matrix (a 1280x720 phone clip is 9:16)', () => {
    const a = asset(interpretProbe(rotated));
    expect(a.aspect_ratio).toBe('9:16');
    expect(a.tracks[0]).toEqual({ type: 'video', duration: 2, max_width: 720, max_height: 1280, max_frame_rate: 30 });
    expect(a.standard).toBe(true);
  });

  it('honours the legacy `rotate` tag when there is no side data', () => {
    const a = asset(interpretProbe(withVideo({ tags: { rotate: '270' } })));
    expect(a.aspect_ratio).toBe('9:16');
    expect(a.video).toMatchObject({ width: 1080, height: 1920 });
  });

  it('reads an AAC-only file as audio-only, without video fields', () => {
    const a = asset(interpretProbe(audioOnly));
    expect(a).toMatchObject({
      duration: 2,
      resolution_tier: 'audio-only',
      max_stored_resolution: 'Audio only',
      tracks: [{ type: 'audio', duration: 2, max_channels: 2, primary: true }],
      hasAudio: true,
      standard: true,
    });
    expect(a).not.toHaveProperty('aspect_ratio');
    expect(a).not.toHaveProperty('max_stored_frame_rate');
    expect(a).not.toHaveProperty('video');
  });

  it('does not count cover art (attached_pic) as a video track', () => {
    const [audio] = audioOnly.streams!;
    const cover: FfprobeStream = { index: 1, codec_type: 'video', codec_name: 'mjpeg', width: 600, height: 600, disposition: { attached_pic: 1 } };
    const a = asset(interpretProbe({ format: audioOnly.format, streams: [audio, cover] }));
    expect(a.resolution_tier).toBe('audio-only');
    expect(a.input_info.tracks.map((t) => t.type)).toEqual(['audio']);
  });

  describe('a video-only 3840x2160p60 yuv422p file', () => {
    it('is capped to 1080p by default and flags its resolution and pixel format', () => {
      const a = asset(interpretProbe(videoOnly4k));
      expect(a).toMatchObject({
        resolution_tier: '1080p',
        max_stored_resolution: 'FHD',
        max_stored_frame_rate: 60,
        tracks: [{ type: 'video', duration: 1, max_width: 1920, max_height: 1080, max_frame_rate: 60 }],
        non_standard_input_reasons: { video_resolution: '3840x2160', unsupported_pixel_format: 'yuv422p' },
        hasAudio: false,
      });
      expect(a.tracks).toHaveLength(1);
    });

    it('keeps 2160p with max_resolution_tier 2160p, and is scaled into 1440p with 1440p', () => {
      expect(asset(interpretProbe(videoOnly4k, { maxResolutionTier: '2160p' }))).toMatchObject({
        resolution_tier: '2160p',
        max_stored_resolution: 'UHD',
        video: { width: 3840, height: 2160 },
      });
      // capped at the tier's own 16:9 frame, 2560x1440 (not the 1440p billing bound, 2048x2048 pixels)
      expect(asset(interpretProbe(videoOnly4k, { maxResolutionTier: '1440p' }))).toMatchObject({
        resolution_tier: '1440p',
        max_stored_resolution: 'FHD',
        video: { width: 2560, height: 1440 },
        tracks: [{ type: 'video', max_width: 2560, max_height: 1440 }],
      });
    });

    it('reports 1440p for a 2560x1440 frame under the 1440p and 2160p caps, and 1080p (1920x1080) under the default', () => {
      const qhd = withSize(videoOnly4k, 2560, 1440);
      for (const cap of ['1440p', '2160p'] as const) {
        expect(asset(interpretProbe(qhd, { maxResolutionTier: cap }))).toMatchObject({ resolution_tier: '1440p', video: { width: 2560, height: 1440 } });
      }
      expect(asset(interpretProbe(qhd))).toMatchObject({ resolution_tier: '1080p', max_stored_resolution: 'FHD', video: { width: 1920, height: 1080 } });
    });

    it('keeps a source under the cap as it is: a 1080p source stays 1080p under the 2160p cap', () => {
      expect(asset(interpretProbe(withSize(videoOnly4k, 1920, 1080), { maxResolutionTier: '2160p' }))).toMatchObject({
        resolution_tier: '1080p',
        video: { width: 1920, height: 1080 },
      });
    });

    it('keeps the aspect ratio of a portrait 4K source capped at 1440p', () => {
      expect(asset(interpretProbe(withSize(videoOnly4k, 2160, 3840), { maxResolutionTier: '1440p' }))).toMatchObject({
        resolution_tier: '1440p',
        video: { width: 1440, height: 2560 },
      });
    });
  });

  it('flags a 2 fps video frame rate', () => {
    expect(asset(interpretProbe(lowFps)).non_standard_input_reasons).toEqual({ video_frame_rate: '2' });
  });
});

describe('interpretProbe rules on edited ffprobe output', () => {
  it('reports an undeterminable frame rate as -1', () => {
    const a = asset(interpretProbe(withVideo({ avg_frame_rate: '0/0' })));
    expect(a.max_stored_frame_rate).toBe(-1);
    expect(a.tracks[0]).toMatchObject({ max_frame_rate: -1 });
    expect(a.non_standard_input_reasons).toEqual({ video_frame_rate: '-1' });
  });

  it('flags over 120 fps but not exactly 120, and rounds NTSC rates', () => {
    expect(asset(interpretProbe(withVideo({ avg_frame_rate: '240/1' }))).non_standard_input_reasons).toEqual({ video_frame_rate: '240' });
    expect(asset(interpretProbe(withVideo({ avg_frame_rate: '120/1' }))).standard).toBe(true);
    expect(asset(interpretProbe(withVideo({ avg_frame_rate: '30000/1001' }))).max_stored_frame_rate).toBe(29.97);
  });

  it('accepts yuvj420p and flags yuv420p10le', () => {
    expect(asset(interpretProbe(withVideo({ pix_fmt: 'yuvj420p' }))).standard).toBe(true);
    expect(asset(interpretProbe(withVideo({ pix_fmt: 'yuv420p10le' }))).non_standard_input_reasons).toEqual({
      unsupported_pixel_format: 'yuv420p10le',
    });
  });

  it('flags a portrait size over 2048 on one dimension, given as width x height', () => {
    expect(asset(interpretProbe(withVideo({ width: 1080, height: 2400 }))).non_standard_input_reasons).toEqual({
      video_resolution: '1080x2400',
    });
  });

  it('flags MP4 streams shifted by an edit list, but not MPEG-TS start offsets', () => {
    const [video, audio] = h264.streams!;
    const shifted = {
      streams: [
        { ...video, start_time: '1.500000' },
        { ...audio, start_time: '0.800000' },
      ],
    };
    expect(asset(interpretProbe({ ...shifted, format: h264.format })).non_standard_input_reasons).toEqual({
      video_edit_list: 'non-standard',
      audio_edit_list: 'non-standard',
    });
    const ts = { ...h264.format, format_name: 'mpegts', start_time: '1.400000' };
    expect(asset(interpretProbe({ ...shifted, format: ts })).standard).toBe(true);
  });

  it('applies the key-frame summary: interval over 20 s and a GOP over 16 Mbps are high', () => {
    const high = asset(interpretProbe(h264, { keyframes: { maxIntervalSeconds: 20.5, maxIntervalBitrate: 16_000_001 } }));
    expect(high.non_standard_input_reasons).toEqual({ video_gop_size: 'high', video_bitrate: 'high' });
    const limit = asset(interpretProbe(h264, { keyframes: { maxIntervalSeconds: 20, maxIntervalBitrate: 16_000_000 } }));
    expect(limit.standard).toBe(true);
  });

  it('falls back to stream durations and flags a file whose duration is unknown', () => {
    const format = { ...h264.format, duration: undefined };
    expect(asset(interpretProbe({ format, streams: h264.streams })).duration).toBe(2);
    const [video] = h264.streams!;
    const unknown = asset(interpretProbe({ format, streams: [{ ...video, duration: undefined }] }));
    expect(unknown.duration).toBe(0);
    expect(unknown.non_standard_input_reasons).toEqual({ unexpected_media_file_parameters: 'non-standard' });
  });
});

describe('interpretProbe errors', () => {
  it('rejects a file with no video or audio track', () => {
    const subtitlesOnly: FfprobeOutput = {
      format: { format_name: 'srt', duration: '10' },
      streams: [{ index: 0, codec_type: 'subtitle', codec_name: 'subrip' }],
    };
    expect(interpretProbe(subtitlesOnly)).toEqual({
      ok: false,
      error: { type: 'invalid_input', messages: ['The input file has no video or audio track.'] },
    });
    expect(interpretProbe({})).toMatchObject({ ok: false, error: { type: 'invalid_input' } });
  });

  it('rejects a file longer than 12 hours and accepts exactly 12 hours', () => {
    const long = interpretProbe({ ...h264, format: { ...h264.format, duration: String(MAX_DURATION_SECONDS + 1) } });
    expect(long).toEqual({
      ok: false,
      error: { type: 'invalid_input', messages: ['The input file is 43201.0 seconds long; the maximum is 12 hours (43200 seconds).'] },
    });
    expect(interpretProbe({ ...h264, format: { ...h264.format, duration: '43200' } }).ok).toBe(true);
  });
});
