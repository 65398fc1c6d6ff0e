import { buildFileProbeArgs, buildMasterArgs, buildMp4EncodeArgs, buildMp4RemuxArgs } from './static-rendition-args';

const HEAD = ['-hide_banner', '-nostdin', '-y', '-nostats', '-progress', 'pipe:1'];

describe('static rendition ffmpeg arguments', () => {
  it('remuxes a stored variant into a faststart MP4, copying its video and its audio if it has one', () => {
    expect(buildMp4RemuxArgs('/w/720p/index.m3u8', '/w/out/high.mp4', { video: true, audio: true })).toEqual([
      ...HEAD,
      '-i',
      '/w/720p/index.m3u8',
      '-map',
      '0:v:0',
      '-map',
      '0:a:0?',
      '-c',
      'copy',
      '-movflags',
      '+faststart',
      '-f',
      'mp4',
      '/w/out/high.mp4',
    ]);
    expect(buildMp4RemuxArgs('/w/720p/index.m3u8', '/w/out/high.mp4', { video: true, audio: false })).toEqual([
      ...HEAD,
      '-i',
      '/w/720p/index.m3u8',
      '-map',
      '0:v:0',
      '-c',
      'copy',
      '-movflags',
      '+faststart',
      '-f',
      'mp4',
      '/w/out/high.mp4',
    ]);
  });

  it('takes an M4A from a variant’s audio alone (ipod muxer, no video)', () => {
    expect(buildMp4RemuxArgs('/w/1080p/index.m3u8', '/w/out/audio.m4a', { video: false, audio: true })).toEqual([
      ...HEAD,
      '-i',
      '/w/1080p/index.m3u8',
      '-map',
      '0:a:0',
      '-c',
      'copy',
      '-vn',
      '-movflags',
      '+faststart',
      '-f',
      'ipod',
      '/w/out/audio.m4a',
    ]);
  });

  it('copies every stream of the master’s rendition into a faststart MP4', () => {
    expect(buildMasterArgs('/w/source/index.m3u8', '/w/out/master.mp4')).toEqual([
      ...HEAD,
      '-i',
      '/w/source/index.m3u8',
      '-map',
      '0:v:0?',
      '-map',
      '0:a:0?',
      '-c',
      'copy',
      '-movflags',
      '+faststart',
      '-f',
      'mp4',
      '/w/out/master.mp4',
    ]);
  });

  it('encodes a size the ladder lacks as the ladder encodes (High, capped VBR), copying the AAC', () => {
    expect(buildMp4EncodeArgs('/w/source/index.m3u8', '/w/out/480p.mp4', { width: 854, height: 480, videoBitrate: 1_000_000, audio: true })).toEqual([
      ...HEAD,
      '-i',
      '/w/source/index.m3u8',
      '-map',
      '0:v:0',
      '-map',
      '0:a:0?',
      '-vf',
      'scale=854:480,setsar=1,format=yuv420p',
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-profile:v',
      'high',
      '-b:v',
      '1000000',
      '-maxrate',
      '1070000',
      '-bufsize',
      '1500000',
      '-c:a',
      'copy',
      '-movflags',
      '+faststart',
      '-f',
      'mp4',
      '/w/out/480p.mp4',
    ]);
    const silent = buildMp4EncodeArgs('/w/720p/index.m3u8', '/o.mp4', { width: 640, height: 360, videoBitrate: 800_000, audio: false, preset: 'ultrafast' });
    expect(silent).not.toContain('-c:a');
    expect(silent).not.toContain('0:a:0?');
    expect(silent[silent.indexOf('-preset') + 1]).toBe('ultrafast');
  });

  it('probes a made file for its format and streams', () => {
    expect(buildFileProbeArgs('/w/out/high.mp4')).toEqual(['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', '/w/out/high.mp4']);
  });
});
