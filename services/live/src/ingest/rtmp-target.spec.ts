import { rtmpTargetOf, standIn } from './rtmp-target';

describe('rtmpTargetOf', () => {
  it('splits as OBS does: the URL is the application, the stream key the stream name', () => {
    expect(rtmpTargetOf('rtmp://a.rtmp.youtube.com/live2', 'abcd-efgh')).toEqual({
      tls: false,
      host: 'a.rtmp.youtube.com',
      port: 1935,
      app: 'live2',
      tcUrl: 'rtmp://a.rtmp.youtube.com/live2',
      streamName: 'abcd-efgh',
    });
    expect(rtmpTargetOf('rtmps://live-api-s.facebook.com:443/rtmp/', 'FB-1?s_bl=1')).toMatchObject({
      tls: true,
      host: 'live-api-s.facebook.com',
      port: 443,
      app: 'rtmp',
      tcUrl: 'rtmps://live-api-s.facebook.com:443/rtmp',
      streamName: 'FB-1?s_bl=1',
    });
    expect(rtmpTargetOf('rtmp://[::1]:1940/a/b', 'k')).toMatchObject({ host: '::1', port: 1940, app: 'a/b', tcUrl: 'rtmp://[::1]:1940/a/b' });
  });

  it('takes the last path segment as the stream name when there is no stream key', () => {
    expect(rtmpTargetOf('rtmps://global-live.mux.com/app/the-key', null)).toMatchObject({
      port: 443,
      app: 'app',
      streamName: 'the-key',
      tcUrl: 'rtmps://global-live.mux.com/app',
    });
  });
});

describe('standIn', () => {
  it('is random letters and digits of the given length', () => {
    expect(standIn(36)).toMatch(/^[A-Za-z0-9]{36}$/);
    expect(standIn(36)).not.toBe(standIn(36));
    expect(standIn(0)).toBe('');
  });
});
