import {
  mp4SupportFiles,
  nameOfResolution,
  PlannedFile,
  staticRenditionFile,
  storedMediaOf,
  tierOfResolution,
  typeOfResolution,
} from './static-rendition-plans';

const video = (width: number, height: number, audio = true) => ({ video: { width, height }, audio });
const names = (plan: { files: PlannedFile[] } | { error: string }) => ('files' in plan ? plan.files.map((f) => `${f.name}@${f.shortSide}`) : plan.error);

describe('which static renditions a stored asset gets', () => {
  describe('mp4_support standard: low (360), medium (540), high (up to 1080), by the stored short side', () => {
    it.each([
      ['1920x1080', video(1920, 1080), ['low.mp4@360', 'medium.mp4@540', 'high.mp4@1080']],
      // a 4K-tier asset: high stays at 1080 (standard predates 4K; capped-1080p is its successor)
      ['3840x2160', video(3840, 2160), ['low.mp4@360', 'medium.mp4@540', 'high.mp4@1080']],
      ['1280x720', video(1280, 720), ['low.mp4@360', 'medium.mp4@540', 'high.mp4@720']],
      // as Mux made them of a 640x400 source: low 576x360 and medium 640x400, no high
      ['640x400', video(640, 400), ['low.mp4@360', 'medium.mp4@400']],
      ['960x540 (no high: it would be medium again)', video(960, 540), ['low.mp4@360', 'medium.mp4@540']],
      ['640x360 (low only)', video(640, 360), ['low.mp4@360']],
      ['320x240', video(320, 240), ['low.mp4@240']],
      // portrait: the short side is the width; as Mux made them of one stored at 1080x1920
      ['1080x1920 portrait', video(1080, 1920), ['low.mp4@360', 'medium.mp4@540', 'high.mp4@1080']],
    ])('%s', (_size, media, expected) => {
      expect(names(mp4SupportFiles('standard', media))).toEqual(expected);
    });

    it('gives an audio-only asset audio.m4a, and a video-only asset MP4s without audio', () => {
      expect(mp4SupportFiles('standard', { audio: true })).toEqual({ files: [{ name: 'audio.m4a', ext: 'm4a', video: false, audio: true, shortSide: 0 }] });
      const silent = mp4SupportFiles('standard', video(1280, 720, false));
      expect('files' in silent && silent.files.every((f) => f.video && !f.audio && f.ext === 'mp4')).toBe(true);
      expect(mp4SupportFiles('standard', { audio: false })).toEqual({ error: 'The asset has neither video nor audio to make MP4 files of.' });
    });
  });

  describe("Mux's newer mp4_support options (its table for video, video-only and audio-only assets)", () => {
    it.each([
      ['capped-1080p', video(1920, 1080), ['capped-1080p.mp4@1080']],
      ['capped-1080p', video(3840, 2160), ['capped-1080p.mp4@1080']],
      ['capped-1080p', video(1280, 720), ['capped-1080p.mp4@720']],
      ['capped-1080p', { audio: true }, ['audio.m4a@0']],
      ['audio-only', video(1280, 720), ['audio.m4a@0']],
      ['audio-only', { audio: true }, ['audio.m4a@0']],
      ['audio-only,capped-1080p', video(1920, 1080), ['audio.m4a@0', 'capped-1080p.mp4@1080']],
      ['audio-only,capped-1080p', video(1920, 1080, false), ['capped-1080p.mp4@1080']],
      ['audio-only,capped-1080p', { audio: true }, ['audio.m4a@0']],
    ])('%s of %j', (option, media, expected) => {
      expect(names(mp4SupportFiles(option, media))).toEqual(expected);
    });

    it('errors audio-only of a video-only asset, as Mux does', () => {
      expect(mp4SupportFiles('audio-only', video(1280, 720, false))).toEqual({
        error: 'The asset has no audio track, so mp4_support "audio-only" has nothing to make.',
      });
    });
  });

  describe('the Static Renditions API', () => {
    it('names files by resolution, types named resolutions advanced, and gives each its tier', () => {
      expect(['highest', 'audio-only', '1080p', '480p'].map(nameOfResolution)).toEqual(['highest.mp4', 'audio.m4a', '1080p.mp4', '480p.mp4']);
      expect(['highest', 'audio-only', '2160p', '270p'].map(typeOfResolution)).toEqual(['standard', 'standard', 'advanced', 'advanced']);
      expect(['2160p', '1440p', '1080p', '720p', '540p', '270p', 'audio-only'].map((r) => tierOfResolution(r, undefined))).toEqual([
        '2160p',
        '1440p',
        '1080p',
        '720p',
        '720p',
        '720p',
        'audio-only',
      ]);
      expect(tierOfResolution('highest', '1080p')).toBe('1080p');
      expect(tierOfResolution('highest', undefined)).toBeUndefined();
    });

    it('plans a resolution up to the stored short side; above it, video of audio-only and audio of video-only are skipped', () => {
      const hd = video(1280, 720);
      expect(staticRenditionFile('highest', hd)).toEqual({ name: 'highest.mp4', ext: 'mp4', video: true, audio: true, shortSide: 0 });
      expect(staticRenditionFile('720p', hd)).toEqual({ name: '720p.mp4', ext: 'mp4', video: true, audio: true, shortSide: 720 });
      expect(staticRenditionFile('480p', hd)).toEqual({ name: '480p.mp4', ext: 'mp4', video: true, audio: true, shortSide: 480 });
      expect(staticRenditionFile('1080p', hd)).toBeUndefined();
      expect(staticRenditionFile('1080p', video(1080, 1920))).toMatchObject({ shortSide: 1080 });
      expect(staticRenditionFile('audio-only', hd)).toEqual({ name: 'audio.m4a', ext: 'm4a', video: false, audio: true, shortSide: 0 });
      expect(staticRenditionFile('audio-only', video(1280, 720, false))).toBeUndefined();
      expect(staticRenditionFile('highest', { audio: true })).toBeUndefined();
      expect(staticRenditionFile('360p', { audio: true })).toBeUndefined();
    });
  });

  it('reads the stored size and audio from the probed tracks', () => {
    expect(
      storedMediaOf([
        { id: 'v', type: 'video', max_width: 1280, max_height: 720 },
        { id: 'a', type: 'audio', max_channels: 2 },
        { id: 't', type: 'text' },
      ]),
    ).toEqual({ video: { width: 1280, height: 720 }, audio: true });
    expect(storedMediaOf([{ id: 'a', type: 'audio' }])).toEqual({ audio: true });
    expect(storedMediaOf([])).toEqual({ audio: false });
  });
});
