import { contentDisposition } from './content-disposition';

describe('Content-Disposition of downloads', () => {
  it('is inline under the file’s own name without ?download= (attachment where the file is for download only)', () => {
    expect(contentDisposition('high.mp4', undefined)).toBe('inline; filename="high.mp4"');
    expect(contentDisposition('master.mp4', undefined, 'attachment')).toBe('attachment; filename="master.mp4"');
  });

  it('is an attachment named as asked, the extension added when missing', () => {
    expect(contentDisposition('high.mp4', 'cats')).toBe('attachment; filename="cats.mp4"');
    expect(contentDisposition('high.mp4', 'cats.mp4')).toBe('attachment; filename="cats.mp4"');
    expect(contentDisposition('high.mp4', 'Cats.MP4')).toBe('attachment; filename="Cats.MP4"');
    expect(contentDisposition('audio.m4a', 'podcast episode 1')).toBe('attachment; filename="podcast episode 1.m4a"');
    expect(contentDisposition('audio.m4a', '')).toBe('attachment; filename="audio.m4a"');
  });

  it('drops path separators, control characters and quotes, and never names a bare dot file', () => {
    expect(contentDisposition('high.mp4', '../../etc/passwd')).toBe('attachment; filename="....etcpasswd.mp4"');
    expect(contentDisposition('high.mp4', 'a"b\\c\r\nd')).toBe('attachment; filename="abcd.mp4"');
    expect(contentDisposition('high.mp4', '..')).toBe('attachment; filename="high.mp4"');
    expect(contentDisposition('high.mp4', 'x'.repeat(300))).toBe(`attachment; filename="${'x'.repeat(200)}.mp4"`);
  });

  it('gives a non-ASCII name an ASCII fallback and the name itself in filename* (RFC 8187)', () => {
    expect(contentDisposition('high.mp4', 'café (1)')).toBe(`attachment; filename="caf_ (1).mp4"; filename*=UTF-8''caf%C3%A9%20%281%29.mp4`);
  });
});
