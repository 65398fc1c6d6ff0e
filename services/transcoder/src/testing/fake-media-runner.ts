import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TEST_WATERMARK } from '../media/ffmpeg-args';
import { FfmpegFeatures } from '../media/ffmpeg-features';
import { FfprobePacket } from '../media/keyframes';
import { MediaToolkit } from '../media/media-tools';
import { FfprobeOutput } from '../media/probe.types';
import { FfmpegRunOptions, MediaAbortedError, MediaProcessError, MediaRunner, RunOptions } from '@platform/media';

/**
 * ffmpeg/ffprobe without the binaries: ffprobe answers `probe` (or refuses the file), the packet scan
 * prints `packets` as ffprobe's JSON does, and each ffmpeg run writes, for every entry of its
 * -var_stream_map, a folder with a two-segment playlist, as the HLS muxer does.
 */
export class FakeMediaRunner {
  probe: FfprobeOutput = {};
  packets: FfprobePacket[] = [];
  unreadable = false;
  /** ffmpeg runs whose argv contains this fail with status 1. */
  failFfmpegWhen?: string;
  /** ffmpeg waits for this before finishing (an abort ends the wait). */
  hold?: Promise<void>;
  /** Segment durations of the playlists ffmpeg runs whose argv contains the key write (default 4 s + 2 s). */
  readonly segmentsWhen = new Map<string, number[]>();
  /** Frames the segment probe says the first packets decode to (0: an undecodable rendition). */
  decodedFrames = 5;
  /** Called with each ffmpeg run's argv as it starts. */
  onFfmpeg?: (args: string[]) => unknown;
  readonly ffmpegRuns: string[][] = [];
  readonly probeRuns: string[][] = [];
  /** ffprobe's answer for a file named `overlay` (the watermark image); default a 200x100 PNG. */
  overlayProbe: FfprobeOutput = {
    format: { format_name: 'png_pipe' },
    streams: [{ index: 0, codec_type: 'video', codec_name: 'png', width: 200, height: 100 }],
  };
  /** What a loudness measuring pass logs (`ffmpegLog`). */
  loudnormLog =
    '[Parsed_loudnorm_1 @ 0x1] \n{\n\t"input_i" : "-40.00",\n\t"input_tp" : "-30.00",\n\t"input_lra" : "2.00",\n\t"input_thresh" : "-50.00",\n\t"target_offset" : "0.10"\n}\n';

  async probeJson<T>(args: string[], options: RunOptions = {}): Promise<T> {
    this.started('ffprobe', args, options);
    this.probeRuns.push(args);
    if (args.includes('-show_format') && args[args.length - 1].endsWith('/overlay')) return this.overlayProbe as T;
    if (args.includes('-show_format')) {
      if (this.unreadable) throw new MediaProcessError('ffprobe', 1, null, 'Invalid data found when processing input');
      return this.probe as T;
    }
    const segment = args[args.length - 1];
    const audioOnly = segment.includes('/audio/');
    const streams = [
      ...(audioOnly
        ? []
        : [
            {
              index: 0,
              codec_type: 'video',
              codec_name: 'h264',
              profile: 'High',
              level: 30,
              width: 640,
              height: 360,
              avg_frame_rate: '30/1',
              nb_read_frames: String(this.decodedFrames),
            },
          ]),
      { index: 1, codec_type: 'audio', codec_name: 'aac', profile: 'LC', avg_frame_rate: '0/0', nb_read_frames: String(this.decodedFrames) },
    ];
    return { streams } as T;
  }

  async probeLines(args: string[], onLine: (line: string) => void, options: RunOptions = {}): Promise<void> {
    this.started('ffprobe', args, options);
    this.probeRuns.push(args);
    for (const line of JSON.stringify({ packets: this.packets }, null, 4).split('\n')) onLine(line);
  }

  async ffmpeg(args: string[], options: FfmpegRunOptions = {}): Promise<void> {
    this.started('ffmpeg', args, options);
    this.ffmpegRuns.push(args);
    this.onFfmpeg?.(args);
    if (this.hold) {
      const signal = options.signal;
      await Promise.race([
        this.hold,
        new Promise((_, reject) => signal?.addEventListener('abort', () => reject(new MediaAbortedError('ffmpeg', signal.reason)))),
      ]);
    }
    if (this.failFfmpegWhen && args.some((a) => a.includes(this.failFfmpegWhen!))) {
      throw new MediaProcessError('ffmpeg', 1, null, 'Conversion failed!');
    }
    const output = args[args.length - 1]; // <dir>/%v/index.m3u8
    const map = args[args.indexOf('-var_stream_map') + 1].split(' ');
    const durations = [...this.segmentsWhen].find(([key]) => args.some((a) => a.includes(key)))?.[1] ?? [4, 2];
    map.forEach((entry, i) => {
      const name = /name:([^,]+)/.exec(entry)?.[1] ?? String(i);
      const folder = output.replace('%v', name).replace(/\/index\.m3u8$/, '');
      mkdirSync(folder, { recursive: true });
      const lines = ['#EXTM3U', '#EXT-X-VERSION:3'];
      durations.forEach((seconds, n) => {
        const segment = `segment_${String(n).padStart(3, '0')}.ts`;
        writeFileSync(join(folder, segment), Buffer.alloc(n === 0 ? 50_000 : 20_000, i));
        lines.push(`#EXTINF:${seconds.toFixed(6)},`, segment);
      });
      writeFileSync(join(folder, 'index.m3u8'), `${lines.join('\n')}\n#EXT-X-ENDLIST\n`);
    });
    options.onProgress?.({ outTimeSeconds: options.durationSeconds ?? 0, fraction: 1, done: true });
  }

  async ffmpegLog(args: string[], options: RunOptions = {}): Promise<string> {
    this.started('ffmpeg', args, options);
    this.ffmpegRuns.push(args);
    if (this.failFfmpegWhen && args.some((a) => a.includes(this.failFfmpegWhen!))) throw new MediaProcessError('ffmpeg', 1, null, 'Conversion failed!');
    return this.loudnormLog;
  }

  private started(tool: 'ffmpeg' | 'ffprobe', _args: string[], options: RunOptions): void {
    if (options.signal?.aborted) throw new MediaAbortedError(tool, options.signal.reason);
    options.onSpawn?.(4242);
  }
}

export const CURRENT_FFMPEG: FfmpegFeatures = { legacyHlsMuxer: false, ffprobeReadsMpegts: true, watermark: TEST_WATERMARK, font: 'fontconfig' };

/** MediaTools handing out the fake runner. */
export function fakeMediaTools(runner: FakeMediaRunner, features: FfmpegFeatures = CURRENT_FFMPEG): { get(): Promise<MediaToolkit> } {
  return { get: async () => ({ runner: runner as unknown as MediaRunner, features }) };
}
