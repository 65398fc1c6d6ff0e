import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import Mux from '@mux/mux-node';
import { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { loadConfig, PlatformConfig } from '@platform/config';
import { PlatformConfigModule } from '@platform/grpc';
import { assetKeys, createObjectStore } from '@platform/storage';
import { fakeUnitOfWork } from '@platform/testing';
import { PlaybackRestrictionRepository } from '../playback-restrictions/playback-restriction.repository';
import { PlaybackRestrictionsService } from '../playback-restrictions/playback-restrictions.service';
import { SigningKeyRepository } from '../signing-keys/signing-key.repository';
import { SigningKeysService } from '../signing-keys/signing-keys.service';
import { FakeAssetsClient, InMemoryPlaybackRestrictions, InMemorySigningKeys } from '../testing';
import { ASSETS_SERVICE, LIVE_STREAMS_SERVICE } from './playback-id-lookup';
import { PlaybackHostModule } from './playback-host.module';

const MASTER = [
  '#EXTM3U',
  '#EXT-X-VERSION:3',
  '#EXT-X-STREAM-INF:BANDWIDTH=2500000,RESOLUTION=1280x720,CODECS="avc1.64001f,mp4a.40.2"',
  'source/index.m3u8',
  '#EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=640x360,CODECS="avc1.64001e,mp4a.40.2"',
  '360p/index.m3u8',
  '',
].join('\n');

const VARIANT = [
  '#EXTM3U',
  '#EXT-X-VERSION:3',
  '#EXT-X-TARGETDURATION:2',
  '#EXT-X-PLAYLIST-TYPE:VOD',
  '#EXTINF:2.000000,',
  'segment_000.ts',
  '#EXTINF:1.000000,',
  'segment_001.ts',
  '#EXT-X-ENDLIST',
  '',
].join('\n');

/** 1000 bytes of TS-looking data: a sync byte every 188 bytes, a counter in between. */
const SEGMENT = Buffer.from(Array.from({ length: 1000 }, (_, i) => (i % 188 === 0 ? 0x47 : i % 251)));

const mux = new Mux({ tokenId: 'unused', tokenSecret: 'unused', baseURL: 'http://127.0.0.1:9' });

describe('playback host over HTTP (fs object store, fake assets service)', () => {
  let app: INestApplication;
  let base: string;
  let dataDir: string;
  let config: PlatformConfig;
  const assetsClient = new FakeAssetsClient();
  const { unitOfWork } = fakeUnitOfWork();
  const signingKeys = new InMemorySigningKeys();
  const keys = new SigningKeysService(signingKeys as unknown as SigningKeyRepository, unitOfWork);
  const restrictionRows = new InMemoryPlaybackRestrictions();
  const restrictions = new PlaybackRestrictionsService(restrictionRows as unknown as PlaybackRestrictionRepository, unitOfWork);

  const url = (p: string) => `${base}/${p}`;
  const grantOf = (playlist: string) => /grant=([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)/.exec(playlist)![1];
  const rawGet = (requestPath: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const { hostname, port } = new URL(base);
      http
        .get({ hostname, port, path: requestPath }, (res) => {
          let body = '';
          res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
          res.on('end', () => resolve({ status: res.statusCode!, body }));
        })
        .on('error', reject);
    });
  const errorBody = async (res: Response) => (await res.json()) as { error: { type: string; messages: string[] } };

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'playback-host-'));
    config = { ...loadConfig({}), dataDir, s3: undefined, playback: { grantSecret: 'test-grant-secret', grantSeconds: 3600 } };
    const store = createObjectStore(config);
    for (const assetId of ['asset-pub', 'asset-sig']) {
      await store.putBuffer(assetKeys.hls(assetId, 'master.m3u8'), MASTER);
      for (const variant of ['source', '360p']) {
        await store.putBuffer(assetKeys.hls(assetId, `${variant}/index.m3u8`), VARIANT);
        await store.putBuffer(assetKeys.hls(assetId, `${variant}/segment_000.ts`), SEGMENT);
      }
    }
    assetsClient.add('pubId1', 'public', 'asset-pub');
    assetsClient.add('sigId1', 'signed', 'asset-sig');
    assetsClient.add('prepId1', 'public', 'asset-prep', 'preparing');

    const moduleRef = await Test.createTestingModule({ imports: [PlatformConfigModule.forRoot(config), PlaybackHostModule] })
      .overrideProvider(LIVE_STREAMS_SERVICE)
      .useValue(new FakeAssetsClient())
      .overrideProvider(ASSETS_SERVICE)
      .useValue(assetsClient)
      .overrideProvider(SigningKeyRepository)
      .useValue(signingKeys)
      .overrideProvider(SigningKeysService)
      .useValue(keys)
      .overrideProvider(PlaybackRestrictionRepository)
      .useValue(restrictionRows)
      .overrideProvider(PlaybackRestrictionsService)
      .useValue(restrictions)
      .compile();
    app = moduleRef.createNestApplication({ logger: false });
    await app.listen(0, '127.0.0.1');
    base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  });

  afterAll(async () => {
    await app?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers its health check', async () => {
    const res = await fetch(url('healthz'));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  describe('a public playback id', () => {
    it('serves the master with children under the playback id, each with the grant', async () => {
      const res = await fetch(url('pubId1.m3u8'));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/vnd.apple.mpegurl');
      expect(res.headers.get('cache-control')).toBe('public, max-age=2');
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-expose-headers')).toBe('Content-Length, Content-Range, Accept-Ranges, ETag');
      const body = await res.text();
      const grant = grantOf(body);
      expect(body).toBe(
        MASTER.replace('source/index.m3u8', `pubId1/source/index.m3u8?grant=${grant}`).replace('360p/index.m3u8', `pubId1/360p/index.m3u8?grant=${grant}`),
      );
      expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(body));
      expect(JSON.parse(Buffer.from(grant.split('.')[0], 'base64url').toString())).toEqual({ p: 'pubId1', a: 'asset-pub', e: expect.any(Number) });
    });

    it('serves the master at /{playback_id} too, and answers HEAD with the same headers and no body', async () => {
      expect((await (await fetch(url('pubId1'))).text()).startsWith('#EXTM3U')).toBe(true);
      const get = await fetch(url('pubId1.m3u8'));
      const head = await fetch(url('pubId1.m3u8'), { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(await head.text()).toBe('');
      for (const name of ['content-type', 'content-length', 'cache-control', 'access-control-allow-origin']) {
        expect(head.headers.get(name)).toBe(get.headers.get(name));
      }
    });

    it('serves a variant with relative segment URIs carrying the same grant, without looking the id up again', async () => {
      const master = await (await fetch(url('pubId1.m3u8'))).text();
      const lookups = assetsClient.lookups.length;
      const variantUrl = new URL(master.split('\n')[3], url('pubId1.m3u8')).toString();
      expect(variantUrl).toBe(url(`pubId1/source/index.m3u8?grant=${grantOf(master)}`));

      const res = await fetch(variantUrl);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/vnd.apple.mpegurl');
      expect(res.headers.get('cache-control')).toBe('public, max-age=2');
      const grant = grantOf(master);
      expect(await res.text()).toBe(
        VARIANT.replace('segment_000.ts', `segment_000.ts?grant=${grant}`).replace('segment_001.ts', `segment_001.ts?grant=${grant}`),
      );
      expect(assetsClient.lookups.length).toBe(lookups);
    });

    it('streams a segment with its type, length, validators and a year of immutable cache', async () => {
      const grant = grantOf(await (await fetch(url('pubId1.m3u8'))).text());
      const res = await fetch(url(`pubId1/source/segment_000.ts?grant=${grant}`));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('video/mp2t');
      expect(res.headers.get('content-length')).toBe('1000');
      expect(res.headers.get('accept-ranges')).toBe('bytes');
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(res.headers.get('etag')).toMatch(/^(W\/)?".+"$/);
      expect(Date.parse(res.headers.get('last-modified')!)).toBeGreaterThan(Date.now() - 600_000);
      expect(Buffer.from(await res.arrayBuffer())).toEqual(SEGMENT);
    });

    it('answers byte ranges with 206 and Content-Range, and an unsatisfiable one with 416', async () => {
      const segment = url(`pubId1/source/segment_000.ts?grant=${grantOf(await (await fetch(url('pubId1.m3u8'))).text())}`);

      const middle = await fetch(segment, { headers: { range: 'bytes=188-375' } });
      expect(middle.status).toBe(206);
      expect(middle.headers.get('content-range')).toBe('bytes 188-375/1000');
      expect(middle.headers.get('content-length')).toBe('188');
      expect(Buffer.from(await middle.arrayBuffer())).toEqual(SEGMENT.subarray(188, 376));

      const open = await fetch(segment, { headers: { range: 'bytes=900-' } });
      expect(open.headers.get('content-range')).toBe('bytes 900-999/1000');
      expect(Buffer.from(await open.arrayBuffer())).toEqual(SEGMENT.subarray(900));

      const suffix = await fetch(segment, { headers: { range: 'bytes=-10' } });
      expect(suffix.status).toBe(206);
      expect(suffix.headers.get('content-range')).toBe('bytes 990-999/1000');
      expect(Buffer.from(await suffix.arrayBuffer())).toEqual(SEGMENT.subarray(990));

      const beyond = await fetch(segment, { headers: { range: 'bytes=1000-' } });
      expect(beyond.status).toBe(416);
      expect(beyond.headers.get('content-range')).toBe('bytes */1000');
      expect(await errorBody(beyond)).toEqual({ error: { type: 'range_not_satisfiable', messages: ['Range not satisfiable: the object has 1000 bytes'] } });

      const head = await fetch(segment, { method: 'HEAD', headers: { range: 'bytes=0-9' } });
      expect(head.status).toBe(206);
      expect(head.headers.get('content-range')).toBe('bytes 0-9/1000');
      expect(head.headers.get('content-length')).toBe('10');
      expect(await head.text()).toBe('');
    });

    it('answers a matching If-None-Match with 304', async () => {
      const segment = url(`pubId1/360p/segment_000.ts?grant=${grantOf(await (await fetch(url('pubId1.m3u8'))).text())}`);
      const etag = (await fetch(segment, { method: 'HEAD' })).headers.get('etag')!;
      const again = await fetch(segment, { headers: { 'if-none-match': etag } });
      expect(again.status).toBe(304);
      expect(again.headers.get('etag')).toBe(etag);
      expect(await again.text()).toBe('');
      expect((await fetch(segment, { headers: { 'if-none-match': '"something-else"' } })).status).toBe(200);
    });

    it('serves children without a grant after a lookup (the full check)', async () => {
      const lookups = assetsClient.lookups.length;
      const res = await fetch(url('pubId1/source/segment_000.ts'));
      expect(res.status).toBe(200);
      expect(Buffer.from(await res.arrayBuffer())).toEqual(SEGMENT);
      expect(assetsClient.lookups.length).toBe(lookups + 1);
    });
  });

  describe('a signed playback id', () => {
    it('refuses the master without a token, with the reason in the error body', async () => {
      const res = await fetch(url('sigId1.m3u8'));
      expect(res.status).toBe(403);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(await errorBody(res)).toEqual({ error: { type: 'forbidden', messages: ['Token is required for a signed playback ID'] } });
    });

    it('plays master → variant → segment with an SDK token on the master only, all private to caches', async () => {
      const key = await keys.create();
      const token = await mux.jwt.signPlaybackId('sigId1', { keyId: key.id, keySecret: key.private_key! });
      const masterUrl = url(`sigId1.m3u8?token=${token}`);
      const master = await fetch(masterUrl);
      expect(master.status).toBe(200);
      expect(master.headers.get('cache-control')).toBe('private, max-age=2');
      const masterText = await master.text();
      expect(masterText).not.toContain(token);
      expect(JSON.parse(Buffer.from(grantOf(masterText).split('.')[0], 'base64url').toString())).toEqual({
        p: 'sigId1',
        a: 'asset-sig',
        e: expect.any(Number),
        s: 1,
      });

      const variantUrl = new URL(masterText.split('\n')[5], masterUrl).toString();
      const variant = await fetch(variantUrl);
      expect(variant.status).toBe(200);
      expect(variant.headers.get('cache-control')).toBe('private, max-age=2');
      const segment = await fetch(new URL((await variant.text()).split('\n')[5], variantUrl));
      expect(segment.status).toBe(200);
      expect(segment.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
      expect(Buffer.from(await segment.arrayBuffer())).toEqual(SEGMENT);
    });

    it('refuses children without grant or token, and with a tampered grant', async () => {
      const noGrant = await fetch(url('sigId1/source/segment_000.ts'));
      expect(noGrant.status).toBe(403);
      expect(await errorBody(noGrant)).toEqual({ error: { type: 'forbidden', messages: ['Token is required for a signed playback ID'] } });

      const key = await keys.create();
      const token = await mux.jwt.signPlaybackId('sigId1', { keyId: key.id, keySecret: key.private_key! });
      const grant = grantOf(await (await fetch(url(`sigId1.m3u8?token=${token}`))).text());
      const tampered = await fetch(url(`sigId1/source/index.m3u8?grant=${grant.slice(0, -2)}xx`));
      expect(tampered.status).toBe(403);
      expect(await errorBody(tampered)).toEqual({ error: { type: 'forbidden', messages: ['Grant signature is invalid'] } });
      // the grant of one playback id opens no other
      expect((await fetch(url(`pubId1/source/index.m3u8?grant=${grant}`))).status).toBe(403);
      // a token works on a child URL too, and the variant then hands out a grant of its own
      const variant = await fetch(url(`sigId1/source/index.m3u8?token=${token}`));
      expect(variant.status).toBe(200);
      expect(grantOf(await variant.text())).toMatch(/\./);
    });

    it('applies a playback restriction to the Referer of the master and of every child', async () => {
      const key = await keys.create();
      const restriction = await restrictions.create({ referrer: { allowed_domains: ['*.example.com'], allow_no_referrer: false }, user_agent: undefined });
      const token = await mux.jwt.signPlaybackId('sigId1', { keyId: key.id, keySecret: key.private_key!, params: { playback_restriction_id: restriction.id } });
      const referer = { referer: 'https://www.example.com/watch' };

      const denied = await fetch(url(`sigId1.m3u8?token=${token}`), { headers: { referer: 'https://evil.test/' } });
      expect(denied.status).toBe(403);
      expect(await errorBody(denied)).toEqual({ error: { type: 'forbidden', messages: ['The Referer domain is not allowed by the playback restriction'] } });

      const master = await fetch(url(`sigId1.m3u8?token=${token}`), { headers: referer });
      expect(master.status).toBe(200);
      const grant = grantOf(await master.text());
      expect(JSON.parse(Buffer.from(grant.split('.')[0], 'base64url').toString())).toMatchObject({ r: restriction.id });
      expect((await fetch(url(`sigId1/source/index.m3u8?grant=${grant}`), { headers: referer })).status).toBe(200);
      expect((await fetch(url(`sigId1/source/segment_000.ts?grant=${grant}`), { headers: referer })).status).toBe(200);
      const child = await fetch(url(`sigId1/source/segment_000.ts?grant=${grant}`));
      expect(child.status).toBe(403);
      expect(await errorBody(child)).toEqual({ error: { type: 'forbidden', messages: ['A Referer header is required by the playback restriction'] } });
    });
  });

  describe('refusals', () => {
    it('answers an unknown playback id with 404 in the error shape, for GET and HEAD', async () => {
      const res = await fetch(url('abc123.m3u8'));
      expect(res.status).toBe(404);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(await errorBody(res)).toEqual({ error: { type: 'not_found', messages: ['Playback ID abc123 not found'] } });
      const head = await fetch(url('abc123.m3u8'), { method: 'HEAD' });
      expect(head.status).toBe(404);
      expect(await head.text()).toBe('');
    });

    it('answers an asset that is not ready yet with 412', async () => {
      const res = await fetch(url('prepId1.m3u8'));
      expect(res.status).toBe(412);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(await errorBody(res)).toEqual({
        error: { type: 'precondition_failed', messages: ['Playback ID prepId1 is not ready to play (asset status: preparing)'] },
      });
    });

    it('answers a missing rendition or segment with 404', async () => {
      const grant = grantOf(await (await fetch(url('pubId1.m3u8'))).text());
      const segment = await fetch(url(`pubId1/source/segment_999.ts?grant=${grant}`));
      expect(segment.status).toBe(404);
      expect(await errorBody(segment)).toEqual({ error: { type: 'not_found', messages: ['Playback file source/segment_999.ts not found'] } });
      const variant = await fetch(url(`pubId1/1080p/index.m3u8?grant=${grant}`));
      expect(await errorBody(variant)).toEqual({ error: { type: 'not_found', messages: ['Playback file 1080p/index.m3u8 not found'] } });
    });

    it.each([
      'pubId1/%2E%2E/index.m3u8',
      'pubId1/source/%2E%2E',
      'pubId1/..%2F..%2Fasset-sig%2Fhls/index.m3u8',
      'pubId1/source/a%2Fb.ts',
      'pub.Id/source/index.m3u8',
    ])('never leaves the asset folder: %s → 404', async (p) => {
      // sent as written: fetch would resolve the dot segments before they reach the server
      const res = await rawGet(`/${p}`);
      expect(res.status).toBe(404);
      expect(JSON.parse(res.body).error.type).toBe('not_found');
    });

    it('answers other paths with 404 in the error shape, not 500', async () => {
      const res = await fetch(url('pubId1/high.mp4'));
      expect(res.status).toBe(404);
      expect(await errorBody(res)).toEqual({ error: { type: 'not_found', messages: ['Not a playback URL: GET /pubId1/high.mp4'] } });
      expect((await fetch(url('pubId1.m3u8'), { method: 'POST' })).status).toBe(404);
    });

    it('answers a CORS preflight', async () => {
      const res = await fetch(url('pubId1/source/segment_000.ts'), {
        method: 'OPTIONS',
        headers: { origin: 'https://player.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'range' },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-allow-methods')).toBe('GET, HEAD, OPTIONS');
      expect(res.headers.get('access-control-allow-headers')).toContain('Range');
    });
  });
});
