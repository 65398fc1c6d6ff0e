import { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { PlaybackHostModule } from './playback-host.module';

describe('playback host', () => {
  let app: INestApplication;
  let base: string;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({ imports: [PlaybackHostModule] }).compile();
    app = moduleRef.createNestApplication({ logger: false });
    await app.listen(0, '127.0.0.1');
    base = await app.getUrl();
  });
  afterAll(() => app.close());

  it('answers its health check', async () => {
    const res = await fetch(`${base}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('answers an unknown playback id with 404 in the error shape, CORS open for players', async () => {
    const res = await fetch(`${base}/abc123.m3u8`);
    expect(res.status).toBe(404);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(await res.json()).toEqual({ error: { type: 'not_found', messages: ['Playback ID abc123 not found'] } });
    expect((await fetch(`${base}/abc123.m3u8`, { method: 'HEAD' })).status).toBe(404);
  });
});
