import { planLiveLadder } from './live-ladder';
import { packagerArgs } from './packager-args';
import { contentInput, slateInput } from './packager-inputs';

const URL = 'rtmp://127.0.0.1:1935/internal/abc';
const hls = (dir: string, prefix = 's1_', seconds = 2) => [
  '-f',
  'hls',
  '-hls_time',
  String(seconds),
  '-hls_list_size',
  '0',
  '-hls_playlist_type',
  'event',
  '-hls_flags',
  'independent_segments+temp_file',
  '-hls_segment_filename',
  `${dir}/${prefix}%05d.ts`,
  `${dir}/${prefix}index.m3u8`,
];
const h264 = { codec: 'h264', width: 1280, height: 720 };
const aac = { codec: 'aac', channels: 2 };
const x264 = (bitrate: number, keyFrames = ['-force_key_frames', 'source', '-g', '100000', '-fps_mode', 'passthrough']) => [
  '-c:v',
  'libx264',
  '-preset',
  'veryfast',
  '-tune',
  'zerolatency',
  '-pix_fmt',
  'yuv420p',
  '-b:v',
  String(bitrate),
  '-maxrate',
  String(Math.round(bitrate * 1.07)),
  '-bufsize',
  String(Math.round(bitrate * 1.5)),
  ...keyFrames,
  '-sc_threshold',
  '0',
];

describe('packagerArgs', () => {
  const base = { segmentSeconds: 2, workDir: '/w', segmentPrefix: 's1_' };

  it('passthrough of H.264/AAC: one rung, both streams copied (no CPU, no added latency)', () => {
    const rungs = planLiveLadder('passthrough', h264, false);
    expect(packagerArgs({ ...base, input: contentInput(URL, { video: h264, audio: aac }), rungs })).toEqual([
      '-v',
      'error',
      '-rw_timeout',
      '10000000',
      '-i',
      URL,
      '-map',
      '0:v?',
      '-map',
      '0:a?',
      '-c:v',
      'copy',
      '-c:a',
      'copy',
      ...hls('/w'),
    ]);
  });

  it('low latency: each rung one MPEG-TS stream on its own pipe (fd 3, 4, …), flushed packet by packet, for the part cutter', () => {
    const rungs = planLiveLadder('full', { ...h264, width: 960, height: 540 }, false);
    const args = packagerArgs({ ...base, input: contentInput(URL, { video: h264, audio: aac }), rungs, output: 'pipes' });
    const pipes = args.flatMap((a, i) => (a.startsWith('pipe:') ? [args.slice(i - 6, i + 1)] : []));
    expect(pipes).toEqual(rungs.map((_, i) => ['-f', 'mpegts', '-pes_payload_size', '0', '-flush_packets', '1', `pipe:${3 + i}`]));
    expect(args).not.toContain('hls');
    // the copied rung is still copied, the others still take the source's key frames
    expect(args.slice(args.indexOf('pipe:3') - 10, args.indexOf('pipe:3') - 6)).toEqual(['-c:v', 'copy', '-c:a', 'copy']);
    expect(args.filter((a) => a === 'source')).toHaveLength(rungs.length - 1);
  });

  it('the full ladder of a 720p source: the copy on top, then 540p, 360p and 270p from one decode, key frames from the source', () => {
    const rungs = planLiveLadder('full', h264, false);
    expect(rungs.map((r) => r.folder)).toEqual(['live', 'live-540p', 'live-360p', 'live-270p']);
    expect(packagerArgs({ ...base, input: contentInput(URL, { video: h264, audio: aac }), rungs })).toEqual([
      '-v',
      'error',
      '-rw_timeout',
      '10000000',
      '-i',
      URL,
      '-filter_complex',
      '[0:v]split=3[s1][s2][s3];[s1]scale=960:540:force_original_aspect_ratio=decrease,pad=960:540:(ow-iw)/2:(oh-ih)/2[v1];[s2]scale=640:360:force_original_aspect_ratio=decrease,pad=640:360:(ow-iw)/2:(oh-ih)/2[v2];[s3]scale=480:270:force_original_aspect_ratio=decrease,pad=480:270:(ow-iw)/2:(oh-ih)/2[v3]',
      '-map',
      '0:v?',
      '-map',
      '0:a?',
      '-c:v',
      'copy',
      '-c:a',
      'copy',
      ...hls('/w'),
      '-map',
      '[v1]',
      '-map',
      '0:a?',
      ...x264(2_000_000),
      '-c:a',
      'copy',
      ...hls('/w/live-540p'),
      '-map',
      '[v2]',
      '-map',
      '0:a?',
      ...x264(800_000),
      '-c:a',
      'copy',
      ...hls('/w/live-360p'),
      '-map',
      '[v3]',
      '-map',
      '0:a?',
      ...x264(400_000),
      '-c:a',
      'copy',
      ...hls('/w/live-270p'),
    ]);
  });

  it('an HEVC picture and MP3 sound are encoded into the top rung instead of refused', () => {
    const hevc = { codec: 'hevc', width: 640, height: 360 };
    const rungs = planLiveLadder('passthrough', hevc, false);
    expect(packagerArgs({ ...base, input: contentInput(URL, { video: hevc, audio: { codec: 'mp3', channels: 2 } }), rungs })).toEqual([
      '-v',
      'error',
      '-rw_timeout',
      '10000000',
      '-i',
      URL,
      '-filter_complex',
      '[0:v]null[v0]',
      '-map',
      '[v0]',
      '-map',
      '0:a?',
      ...x264(800_000),
      '-c:a',
      'aac',
      '-b:a',
      '128k',
      ...hls('/w'),
    ]);
  });

  it('audio_only: the sound alone, whatever the ladder setting', () => {
    const rungs = planLiveLadder('full', h264, true);
    expect(packagerArgs({ ...base, input: contentInput(URL, { video: h264, audio: aac }, true), rungs })).toEqual([
      '-v',
      'error',
      '-rw_timeout',
      '10000000',
      '-i',
      URL,
      '-map',
      '0:a?',
      '-c:a',
      'copy',
      ...hls('/w'),
    ]);
  });

  it('an unprobed encoder: both streams copied, each map optional', () => {
    const rungs = planLiveLadder('full', undefined, false);
    expect(packagerArgs({ ...base, input: contentInput(URL, undefined), rungs })).toEqual([
      '-v',
      'error',
      '-rw_timeout',
      '10000000',
      '-i',
      URL,
      '-map',
      '0:v?',
      '-map',
      '0:a?',
      '-c:v',
      'copy',
      '-c:a',
      'copy',
      ...hls('/w'),
    ]);
  });

  it('slate for a laddered recording: the default slate fitted once, split into every rung, key frames every segment', () => {
    const rungs = planLiveLadder('full', { width: 640, height: 360 }, false);
    const slate = slateInput({ video: { width: 640, height: 360 }, audio: { channels: 1 } }, 4);
    const still = (bitrateless: string[]) => [
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-tune',
      'stillimage',
      '-pix_fmt',
      'yuv420p',
      ...bitrateless,
      '-sc_threshold',
      '0',
      '-c:a',
      'aac',
      '-b:a',
      '64k',
    ];
    const gop = ['-g', '120', '-keyint_min', '120'];
    expect(packagerArgs({ ...base, segmentSeconds: 4, segmentPrefix: 'slate2_', input: slate, rungs })).toEqual([
      '-v',
      'error',
      '-re',
      '-f',
      'lavfi',
      '-i',
      'color=c=0x1f2937:s=640x360:r=30',
      '-f',
      'lavfi',
      '-i',
      'anullsrc=r=48000:cl=mono',
      '-filter_complex',
      '[0:v]scale=640:360:force_original_aspect_ratio=decrease,pad=640:360:(ow-iw)/2:(oh-ih)/2,format=yuv420p,fps=30,split=2[s0][s1];[s0]null[v0];[s1]scale=480:270:force_original_aspect_ratio=decrease,pad=480:270:(ow-iw)/2:(oh-ih)/2[v1]',
      '-map',
      '[v0]',
      '-map',
      '1:a',
      ...still(gop),
      ...hls('/w', 'slate2_', 4),
      '-map',
      '[v1]',
      '-map',
      '1:a',
      ...still(gop),
      ...hls('/w/live-270p', 'slate2_', 4),
    ]);
  });

  it('slate of an audio-only recording: silence in real time', () => {
    const slate = slateInput({ audio: { channels: 2 } }, 2);
    expect(packagerArgs({ ...base, input: slate, rungs: planLiveLadder('full', undefined, true) })).toEqual([
      '-v',
      'error',
      '-re',
      '-f',
      'lavfi',
      '-i',
      'anullsrc=r=48000:cl=stereo',
      '-map',
      '0:a',
      '-c:a',
      'aac',
      '-b:a',
      '64k',
      ...hls('/w'),
    ]);
  });
});
