import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import Mux from '@mux/mux-node';
import { INestApplication } from '@nestjs/common';
import { loadConfig, PlatformConfig } from '@platform/config';
import { assetKeys, createObjectStore } from '@platform/storage';
import { tamperedAt } from '@platform/testing';
import { playbackHttpApp, playbackHttpFakes } from '../testing';

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

/** Bytes standing for an MP4 (the host serves what is stored, whatever it is). */
const MP4 = Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 256));
const MASTER_TOKEN = 'T'.repeat(43);

const mux = new Mux({ tokenId: 'unused', tokenSecret: 'unused', baseURL: 'http://127.0.0.1:9' });

describe('playback host over HTTP (fs object store, fake assets service)', () => {
  let app: INestApplication;
  let base: string;
  let dataDir: string;
  let config: PlatformConfig;
  const fakes = playbackHttpFakes();
  const { assets: assetsClient, keys, restrictions } = fakes;

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
      await store.putBuffer(assetKeys.staticRendition(assetId, 'high.mp4'), MP4);
      assetsClient.readyFiles.add(`${assetId}/high.mp4`);
    }
    // stored, but not ready (a report not yet made, or mp4_support set to none a moment ago)
    await store.putBuffer(assetKeys.staticRendition('asset-pub', 'low.mp4'), MP4);
    await store.putBuffer(assetKeys.master('asset-pub'), MP4);
    assetsClient.masters.set(MASTER_TOKEN, 'asset-pub');
    assetsClient.add('pubId1', 'public', 'asset-pub');
    assetsClient.add('sigId1', 'signed', 'asset-sig');
    assetsClient.add('prepId1', 'public', 'asset-prep', 'preparing');
    assetsClient.add('tracksId1', 'public', 'asset-pub');
    assetsClient.owners.get('tracksId1')!.renditions = [
      { id: 't1', type: 'text', status: 'ready', name: 'English', language_code: 'en', closed_captions: true },
      { id: 'a1', type: 'audio', primary: true },
      { id: 'fr', type: 'audio', primary: false, status: 'ready', name: 'French', language_code: 'fr' },
    ];
    await store.putBuffer(assetKeys.hls('asset-pub', 'text-t1/index.m3u8'), VARIANT.replace(/\.ts/g, '.vtt'));
    await store.putBuffer(assetKeys.hls('asset-pub', 'text/t1.vtt'), 'WEBVTT\n');

    app = await playbackHttpApp(config, fakes);
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
      expect(res.headers.get('access-control-expose-headers')).toBe('Content-Length, Content-Range, Accept-Ranges, ETag, Content-Disposition');
      const body = await res.text();
      const grant = grantOf(body);
      expect(body).toBe(
        MASTER.replace('source/index.m3u8', `pubId1/source/index.m3u8?grant=${grant}`).replace('360p/index.m3u8', `pubId1/360p/index.m3u8?grant=${grant}`),
      );
      expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(body));
      expect(JSON.parse(Buffer.from(grant.split('.')[0], 'base64url').toString())).toEqual({ p: 'pubId1', a: 'asset-pub', e: expect.any(Number) });
    });

    it('adds the asset’s tracks to the master it serves: SUBTITLES and AUDIO groups, their URIs granted too', async () => {
      const body = await (await fetch(url('tracksId1.m3u8'))).text();
      const grant = grantOf(body);
      const lines = body.split('\n');
      expect(lines.filter((l) => l.startsWith('#EXT-X-MEDIA'))).toEqual([
        `#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",LANGUAGE="en",DEFAULT=NO,AUTOSELECT=YES,CHARACTERISTICS="public.accessibility.transcribes-spoken-dialog,public.accessibility.describes-music-and-sound",URI="tracksId1/text-t1/index.m3u8?grant=${grant}"`,
        '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="audio",NAME="Default",DEFAULT=YES,AUTOSELECT=YES',
        `#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="audio",NAME="French",LANGUAGE="fr",DEFAULT=NO,AUTOSELECT=YES,URI="tracksId1/audio-fr/index.m3u8?grant=${grant}"`,
      ]);
      expect(lines.filter((l) => l.startsWith('#EXT-X-STREAM-INF')).every((l) => l.endsWith(',SUBTITLES="subs",AUDIO="audio"'))).toBe(true);
      const subtitles = await fetch(url(`tracksId1/text-t1/index.m3u8?grant=${grant}`));
      expect(subtitles.status).toBe(200);
      expect(await subtitles.text()).toContain(`segment_000.vtt?grant=${grant}`);
      const whole = await fetch(url(`tracksId1/text/t1.vtt?grant=${grant}`));
      expect([whole.status, whole.headers.get('content-type'), await whole.text()]).toEqual([200, 'text/vtt', 'WEBVTT\n']);
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
      const tampered = await fetch(url(`sigId1/source/index.m3u8?grant=${tamperedAt(grant, -2)}`));
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

  describe('downloads: static renditions and the master MP4', () => {
    it('serves a ready static rendition of a public playback id, whole, by range and HEAD, with validators', async () => {
      const res = await fetch(url('pubId1/high.mp4'));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('video/mp4');
      expect(res.headers.get('content-length')).toBe('5000');
      expect(res.headers.get('accept-ranges')).toBe('bytes');
      expect(res.headers.get('cache-control')).toBe('public, max-age=60');
      expect(res.headers.get('content-disposition')).toBe('inline; filename="high.mp4"');
      expect(Buffer.from(await res.arrayBuffer())).toEqual(MP4);
      const etag = res.headers.get('etag')!;

      const part = await fetch(url('pubId1/high.mp4'), { headers: { range: 'bytes=100-199' } });
      expect(part.status).toBe(206);
      expect(part.headers.get('content-range')).toBe('bytes 100-199/5000');
      expect(Buffer.from(await part.arrayBuffer())).toEqual(MP4.subarray(100, 200));
      const tail = await fetch(url('pubId1/high.mp4'), { headers: { range: 'bytes=-10' } });
      expect(Buffer.from(await tail.arrayBuffer())).toEqual(MP4.subarray(4990));
      const outside = await fetch(url('pubId1/high.mp4'), { headers: { range: 'bytes=9000-' } });
      expect([outside.status, outside.headers.get('content-range')]).toEqual([416, 'bytes */5000']);

      const head = await fetch(url('pubId1/high.mp4'), { method: 'HEAD' });
      expect([head.status, head.headers.get('content-length'), head.headers.get('etag'), await head.text()]).toEqual([200, '5000', etag, '']);
      expect((await fetch(url('pubId1/high.mp4'), { headers: { 'if-none-match': etag } })).status).toBe(304);
    });

    it('names an attachment with ?download=, the extension kept', async () => {
      const res = await fetch(url('pubId1/high.mp4?download=my%20cat'));
      expect(res.headers.get('content-disposition')).toBe('attachment; filename="my cat.mp4"');
      expect(res.headers.get('access-control-expose-headers')).toContain('Content-Disposition');
      expect((await fetch(url('pubId1/high.mp4?download'))).headers.get('content-disposition')).toBe('attachment; filename="high.mp4"');
    });

    it('answers 404 in the error body for a file that is not ready, not stored, or not a rendition name, and for an asset not ready', async () => {
      const notReady = await fetch(url('pubId1/low.mp4'));
      expect(notReady.status).toBe(404);
      expect(await errorBody(notReady)).toEqual({
        error: { type: 'not_found', messages: ['Static rendition low.mp4 of playback ID pubId1 not found (or not ready)'] },
      });
      expect((await fetch(url('pubId1/medium.mp4'))).status).toBe(404);
      expect((await fetch(url('pubId1/movie.mp4'))).status).toBe(404);
      expect((await fetch(url('prepId1/high.mp4'))).status).toBe(404);
      expect((await fetch(url('nobody/high.mp4'))).status).toBe(404);
    });

    it('needs the playback id’s token for a signed id (the same JWT as HLS), its restriction applied', async () => {
      const refused = await fetch(url('sigId1/high.mp4'));
      expect(refused.status).toBe(403);
      expect(await errorBody(refused)).toEqual({ error: { type: 'forbidden', messages: ['Token is required for a signed playback ID'] } });
      const key = await keys.create();
      const token = await mux.jwt.signPlaybackId('sigId1', { keyId: key.id, keySecret: key.private_key! });
      const res = await fetch(url(`sigId1/high.mp4?token=${token}`), { headers: { range: 'bytes=0-9' } });
      expect([res.status, res.headers.get('cache-control')]).toEqual([206, 'private, max-age=60']);
      const restriction = await restrictions.create({ referrer: { allowed_domains: ['example.com'], allow_no_referrer: false }, user_agent: undefined });
      const restricted = await mux.jwt.signPlaybackId('sigId1', {
        keyId: key.id,
        keySecret: key.private_key!,
        params: { playback_restriction_id: restriction.id },
      });
      expect((await fetch(url(`sigId1/high.mp4?token=${restricted}`))).status).toBe(403);
      expect((await fetch(url(`sigId1/high.mp4?token=${restricted}`), { headers: { referer: 'https://example.com/' } })).status).toBe(200);
    });

    it('serves the master to whoever has its URL (no token), as an attachment never cached; 404 once its token is no longer valid', async () => {
      const res = await fetch(url(`master/${MASTER_TOKEN}/master.mp4`));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-disposition')).toBe('attachment; filename="master.mp4"');
      expect(res.headers.get('cache-control')).toBe('private, no-store');
      expect(Buffer.from(await res.arrayBuffer())).toEqual(MP4);
      const part = await fetch(url(`master/${MASTER_TOKEN}/master.mp4?download=archive`), { headers: { range: 'bytes=4990-' } });
      expect([part.status, part.headers.get('content-range'), part.headers.get('content-disposition')]).toEqual([
        206,
        'bytes 4990-4999/5000',
        'attachment; filename="archive.mp4"',
      ]);
      const unknown = await fetch(url(`master/${'U'.repeat(43)}/master.mp4`));
      expect(unknown.status).toBe(404);
      expect(await errorBody(unknown)).toEqual({ error: { type: 'not_found', messages: ['Master not found: the URL expired or master access was removed'] } });
      expect((await fetch(url('master/short/master.mp4'))).status).toBe(404);
      expect((await fetch(url(`master/${MASTER_TOKEN}/other.mp4`))).status).toBe(404);
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
      const res = await fetch(url('pubId1/a/b/c.ts'));
      expect(res.status).toBe(404);
      expect(await errorBody(res)).toEqual({ error: { type: 'not_found', messages: ['Not a playback URL: GET /pubId1/a/b/c.ts'] } });
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
