import { OutboundGuard } from '@platform/outbound';
import { broadcastFieldsOrProblems } from './broadcast-fields';

describe('broadcastFieldsOrProblems (spec 2.10)', () => {
  const guard = new OutboundGuard('public');

  it('applies the defaults: gallery, 1920x1080, no background, no passthrough', () => {
    expect(broadcastFieldsOrProblems({ live_stream_id: 'ls1' }, guard)).toEqual({
      liveStreamId: 'ls1',
      layout: 'gallery',
      resolution: '1920x1080',
      background: null,
      passthrough: null,
    });
  });

  it('keeps what is given', () => {
    const input = { live_stream_id: 'ls1', layout: 'crop', resolution: '720x1280', background: 'https://example.com/bg.png', passthrough: 'p' };
    expect(broadcastFieldsOrProblems(input, guard)).toEqual({
      liveStreamId: 'ls1',
      layout: 'crop',
      resolution: '720x1280',
      background: 'https://example.com/bg.png',
      passthrough: 'p',
    });
  });

  it('names every broken rule, prefixed with where the broadcast is', () => {
    const input = { live_stream_id: '', layout: 'grid', resolution: '640x480', background: 'http://10.0.0.1/bg.png', passthrough: 'x'.repeat(256) };
    expect(broadcastFieldsOrProblems(input, guard, 'broadcasts[0].')).toEqual([
      'broadcasts[0].live_stream_id: is required',
      'broadcasts[0].layout: must be one of gallery, active-speaker, crop',
      'broadcasts[0].resolution: must be one of 1920x1080, 1280x720, 1080x1920, 720x1280, 1080x1080, 720x720',
      expect.stringMatching(/^broadcasts\[0\]\.background: /),
      'broadcasts[0].passthrough: must be at most 255 characters',
    ]);
    expect(broadcastFieldsOrProblems({ live_stream_id: 'ls1', background: 'ftp://example.com/bg.png' }, guard)).toEqual([
      expect.stringMatching(/^background: /),
    ]);
  });
});
