import {
  buildClipAudioArgs,
  buildClipEdgeArgs,
  buildClipEncodeArgs,
  buildClipMuxArgs,
  buildClipPacketArgs,
  buildClipStreamsArgs,
  concatInput,
  seconds,
} from './clip-args';

const COMMON = ['-hide_banner', '-nostdin', '-y', '-v', 'error'];

describe('clip argument builders', () => {
  it('read several segment files as one stream, and 90 kHz ticks as seconds', () => {
    expect(concatInput(['/w/a.ts'])).toBe('/w/a.ts');
    expect(concatInput(['/w/a.ts', '/w/b.ts'])).toBe('concat:/w/a.ts|/w/b.ts');
    expect(() => concatInput(['/w/a|b.ts', '/w/c.ts'])).toThrow('must not contain "|"');
    expect(seconds(126_000)).toBe('1.400000');
    expect(seconds(1)).toBe('0.000011');
  });

  it('probe a segment’s streams, and every video packet of a span as compact lines', () => {
    expect(buildClipStreamsArgs('/w/s0.ts')).toEqual([
      '-v',
      'error',
      '-show_entries',
      'stream=index,codec_type,codec_name,profile,pix_fmt,field_order,start_time',
      '-print_format',
      'json',
      '/w/s0.ts',
    ]);
    expect(buildClipPacketArgs('concat:/w/s0.ts|/w/s1.ts')).toEqual([
      '-v',
      'error',
      '-select_streams',
      'v:0',
      '-show_entries',
      'packet=pts,dts,pos,flags',
      '-print_format',
      'compact',
      'concat:/w/s0.ts|/w/s1.ts',
    ]);
  });

  it('encode an edge: exact frames by PTS, kept timestamps, no B-frames, DTS behind by the copied GOPs’ delay, the source’s PIDs', () => {
    const args = buildClipEdgeArgs('/w/s0.ts', '/w/head.ts', {
      range: { from: 351_000, to: 486_000 },
      dtsDelay: 6000,
      profile: 'high',
      pixFmt: 'yuv420p',
      pmtPid: 4096,
      videoPid: 256,
    });
    expect(args).toEqual([
      ...COMMON,
      '-copyts',
      '-i',
      '/w/s0.ts',
      '-map',
      '0:v:0',
      '-vf',
      'trim=start_pts=351000:end_pts=486000',
      '-fps_mode',
      'passthrough',
      '-enc_time_base',
      '-1',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-crf',
      '17',
      '-profile:v',
      'high',
      '-pix_fmt',
      'yuv420p',
      '-bf',
      '0',
      '-bsf:v',
      'setts=dts=PTS-6000',
      '-f',
      'mpegts',
      '-mpegts_copyts',
      '1',
      '-mpegts_pmt_start_pid',
      '4096',
      '-streamid',
      '0:256',
      '/w/head.ts',
    ]);
  });

  it('stream-copy the audio of a cut with its own timestamps', () => {
    expect(buildClipAudioArgs('concat:/w/s0.ts|/w/s1.ts', { from: 351_000, to: 954_000 }, '/w/audio.ts')).toEqual([
      ...COMMON,
      '-copyts',
      '-i',
      'concat:/w/s0.ts|/w/s1.ts',
      '-map',
      '0:a:0',
      '-c',
      'copy',
      '-ss',
      '3.900000',
      '-to',
      '10.600000',
      '-output_ts_offset',
      '3.900000',
      '-f',
      'mpegts',
      '-mpegts_copyts',
      '1',
      '/w/audio.ts',
    ]);
  });

  it('mux the joined video with the audio, or alone', () => {
    expect(buildClipMuxArgs('concat:/w/head.ts|/w/copied.ts', '/w/audio.ts', '/w/input')).toEqual([
      ...COMMON,
      '-copyts',
      '-i',
      'concat:/w/head.ts|/w/copied.ts',
      '-copyts',
      '-i',
      '/w/audio.ts',
      '-map',
      '0:v:0',
      '-map',
      '1:a:0',
      '-c',
      'copy',
      '-f',
      'mpegts',
      '/w/input',
    ]);
    expect(buildClipMuxArgs('/w/copied.ts', undefined, '/w/input')).toEqual([
      ...COMMON,
      '-copyts',
      '-i',
      '/w/copied.ts',
      '-map',
      '0:v:0',
      '-c',
      'copy',
      '-f',
      'mpegts',
      '/w/input',
    ]);
  });

  it('encode a whole cut: one span trimmed, or several joined', () => {
    expect(buildClipEncodeArgs([{ input: '/w/s0.ts', range: { from: 135_000, to: 225_000 } }], { video: true, audio: true }, '/w/input')).toEqual([
      ...COMMON,
      '-copyts',
      '-i',
      '/w/s0.ts',
      '-filter_complex',
      '[0:v:0]trim=start_pts=135000:end_pts=225000,setpts=PTS-STARTPTS[v0];[0:a:0]atrim=start=1.500000:end=2.500000,asetpts=PTS-STARTPTS[a0]',
      '-map',
      '[v0]',
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-crf',
      '18',
      '-pix_fmt',
      'yuv420p',
      '-force_key_frames',
      'expr:gte(t,n_forced*2)',
      '-map',
      '[a0]',
      '-c:a',
      'aac',
      '-b:a',
      '192000',
      '-f',
      'mpegts',
      '/w/input',
    ]);
    const joined = buildClipEncodeArgs(
      [
        { input: 'concat:/w/s0.ts|/w/s1.ts', range: { from: 486_000, to: 666_000 } },
        { input: '/w/s2.ts', range: { from: 126_000, to: 306_000 } },
      ],
      { video: false, audio: true },
      '/w/input',
    );
    expect(joined).toEqual([
      ...COMMON,
      '-copyts',
      '-i',
      'concat:/w/s0.ts|/w/s1.ts',
      '-copyts',
      '-i',
      '/w/s2.ts',
      '-filter_complex',
      '[0:a:0]atrim=start=5.400000:end=7.400000,asetpts=PTS-STARTPTS[a0];[1:a:0]atrim=start=1.400000:end=3.400000,asetpts=PTS-STARTPTS[a1];[a0][a1]concat=n=2:v=0:a=1[a]',
      '-map',
      '[a]',
      '-c:a',
      'aac',
      '-b:a',
      '192000',
      '-f',
      'mpegts',
      '/w/input',
    ]);
  });
});
