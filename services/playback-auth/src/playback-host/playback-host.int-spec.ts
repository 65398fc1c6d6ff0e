import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import Mux from '@mux/mux-node';
import { loadConfig, PlatformConfig, ServiceName } from '@platform/config';
import { encodeMessages } from '@platform/errors';
import { closeEventBus } from '@platform/events';
import { grpcClientOptions } from '@platform/grpc';
import { assets } from '@platform/proto';
import { assetKeys, createObjectStore } from '@platform/storage';
import { freePort } from '@platform/testing';
import { bootstrap } from '../main';

jest.setTimeout(30_000);

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
if (!TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set: export TEST_DATABASE_URL=$(bash scripts/infra/postgres.sh url)');

const ffmpegScript = path.resolve(__dirname, '../../../../scripts/infra/ffmpeg.sh');
const tool = (name: 'ffmpeg' | 'ffprobe') => execFileSync('bash', [ffmpegScript, name], { encoding: 'utf8' }).trim();

type Handler = grpc.handleUnaryCall<{ id: string }, assets.PlaybackIdOwner>;

function loadService(name: ServiceName, config: PlatformConfig, qualifiedName: string): grpc.ServiceClientConstructor {
  const { options } = grpcClientOptions(name, config);
  const loaded = grpc.loadPackageDefinition(protoLoader.loadSync(options.protoPath as string[], options.loader));
  return qualifiedName.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], loaded) as grpc.ServiceClientConstructor;
}

/** A stand-in owner service (assets or live) on a real gRPC port: LookupPlaybackId over a map. */
async function fakeOwnerServer(
  config: PlatformConfig,
  service: 'assets' | 'live',
  qualifiedName: string,
  owners: Map<string, assets.PlaybackIdOwner>,
): Promise<grpc.Server> {
  const server = new grpc.Server();
  const lookup: Handler = (call, callback) => {
    const owner = owners.get(call.request.id);
    if (owner) callback(null, owner);
    else callback({ code: grpc.status.NOT_FOUND, details: encodeMessages(['Playback ID not found']) });
  };
  server.addService(loadService(service, config, qualifiedName).service, { LookupPlaybackId: lookup });
  await new Promise<void>((resolve, reject) =>
    server.bindAsync(config.grpcUrls[service], grpc.ServerCredentials.createInsecure(), (err) => (err ? reject(err) : resolve())),
  );
  return server;
}

/**
 * The playback host as deployed: playback-auth booted by its main, the assets service reached
 * over real gRPC, Postgres for the signing keys, files in the filesystem store.
 */
describe('playback host, booted by main, over gRPC and Postgres', () => {
  const owners = new Map<string, assets.PlaybackIdOwner>();
  let config: PlatformConfig;
  let dataDir: string;
  let app: Awaited<ReturnType<typeof bootstrap>>;
  let assetsServer: grpc.Server;
  let liveServer: grpc.Server;
  const liveOwners = new Map<string, assets.PlaybackIdOwner>();
  let signingKeys: grpc.Client;
  const mux = new Mux({ tokenId: 'unused', tokenSecret: 'unused', baseURL: 'http://127.0.0.1:9' });

  const stream = (p: string, init?: RequestInit) => fetch(`http://127.0.0.1:${config.streamPort}/${p}`, init);
  const call = <T>(method: string, request: object) =>
    new Promise<T>((resolve, reject) =>
      (signingKeys as unknown as Record<string, (r: object, cb: (e: Error | null, v: T) => void) => void>)[method](request, (e, v) =>
        e ? reject(e) : resolve(v),
      ),
    );

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'playback-host-int-'));
    config = loadConfig({
      DATABASE_URL: TEST_DATABASE_URL,
      DATABASE_POOL_SIZE: '3',
      DATA_DIR: dataDir,
      STREAM_PORT: String(await freePort()),
      PLAYBACK_AUTH_GRPC_URL: `127.0.0.1:${await freePort()}`,
      ASSETS_GRPC_URL: `127.0.0.1:${await freePort()}`,
      LIVE_GRPC_URL: `127.0.0.1:${await freePort()}`,
      PLAYBACK_GRANT_SECRET: 'int-test-secret',
      LOG_LEVEL: 'error',
    });
    const store = createObjectStore(config);
    await store.putBuffer(assetKeys.hls('asset-1', 'master.m3u8'), '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1000\nsource/index.m3u8\n');
    await store.putBuffer(assetKeys.hls('asset-1', 'source/index.m3u8'), '#EXTM3U\n#EXTINF:2,\nsegment_000.ts\n#EXT-X-ENDLIST\n');
    await store.putBuffer(assetKeys.hls('asset-1', 'source/segment_000.ts'), Buffer.alloc(376, 0x47));
    owners.set('pubInt1', { id: 'pubInt1', policy: 'public', object: { type: 'asset', id: 'asset-1' }, status: 'ready', renditions: [] });
    owners.set('sigInt1', { id: 'sigInt1', policy: 'signed', object: { type: 'asset', id: 'asset-1' }, status: 'ready', renditions: [] });

    assetsServer = await fakeOwnerServer(config, 'assets', 'platform.assets.v1.AssetsService', owners);
    await store.putBuffer(assetKeys.hls('live-asset-1', 'master.m3u8'), '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1000\nlive/index.m3u8\n');
    await store.putBuffer(assetKeys.hls('live-asset-1', 'live/index.m3u8'), '#EXTM3U\n#EXT-X-PLAYLIST-TYPE:EVENT\n#EXTINF:2,\nsegment_00000.ts\n');
    await store.putBuffer(assetKeys.hls('live-asset-1', 'live/segment_00000.ts'), Buffer.alloc(188, 0x47));
    liveOwners.set('liveInt1', {
      id: 'liveInt1',
      policy: 'public',
      object: { type: 'live_stream', id: 'stream-1' },
      status: 'active',
      media_asset_id: 'live-asset-1',
      renditions: [],
    });
    liveOwners.set('liveInt2', { id: 'liveInt2', policy: 'public', object: { type: 'live_stream', id: 'stream-2' }, status: 'idle', renditions: [] });
    liveServer = await fakeOwnerServer(config, 'live', 'platform.live.v1.LiveStreamsService', liveOwners);
    app = await bootstrap(config);
    const SigningKeys = loadService('playback-auth', config, 'platform.playback_auth.v1.SigningKeysService');
    signingKeys = new SigningKeys(config.grpcUrls['playback-auth'], grpc.credentials.createInsecure());
  });

  afterAll(async () => {
    signingKeys?.close();
    await app?.close();
    await closeEventBus();
    assetsServer?.forceShutdown();
    liveServer?.forceShutdown();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('resolves a public playback id through AssetsService.LookupPlaybackId and plays it', async () => {
    const master = await stream('pubInt1.m3u8');
    expect(master.status).toBe(200);
    const text = await master.text();
    expect(text).toMatch(/^#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1000\npubInt1\/source\/index\.m3u8\?grant=[\w-]+\.[\w-]+\n$/);
    expect(master.headers.get('keep-alive')).toBe('timeout=65'); // idle connections outlive clients' own timeouts
    const variant = await stream(text.split('\n')[2]);
    const segment = await stream(`pubInt1/source/${(await variant.text()).split('\n')[2]}`);
    expect(segment.status).toBe(200);
    expect(Buffer.from(await segment.arrayBuffer())).toEqual(Buffer.alloc(376, 0x47));
  });

  it('plays a live stream’s playback id from the asset it records into (asked of the live service), 412 before its first broadcast', async () => {
    const master = await stream('liveInt1.m3u8');
    expect(master.status).toBe(200);
    const variantPath = (await master.text()).split('\n')[2];
    expect(variantPath).toMatch(/^liveInt1\/live\/index\.m3u8\?grant=/);
    const variant = await stream(variantPath);
    expect(variant.headers.get('cache-control')).toBe('public, max-age=2');
    const segment = await stream(`liveInt1/live/${(await variant.text()).split('\n')[3]}`);
    expect(Buffer.from(await segment.arrayBuffer())).toEqual(Buffer.alloc(188, 0x47));
    const never = await stream('liveInt2.m3u8');
    expect(never.status).toBe(412);
    expect(await never.json()).toEqual({ error: { type: 'precondition_failed', messages: ['Live stream of playback ID liveInt2 has not been live yet'] } });
  });

  it('turns NOT_FOUND from the assets and live services into 404', async () => {
    const res = await stream('nope1.m3u8');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { type: 'not_found', messages: ['Playback ID nope1 not found'] } });
  });

  it('answers 400 with the error body to a path that does not percent-decode (Nest’s router refuses it before any controller)', async () => {
    for (const bad of ['%zz.m3u8', 'pubInt1/source/%E0%A4%A.ts']) {
      const res = await stream(bad);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: { type: 'invalid_parameters', messages: [expect.stringMatching(/^Failed to decode param/)] } });
    }
  });

  it('verifies SDK tokens against keys stored in Postgres, and stops at once when the key is deleted', async () => {
    const key = await call<{ id: string; private_key: string }>('CreateSigningKey', {});
    const token = await mux.jwt.signPlaybackId('sigInt1', { keyId: key.id, keySecret: key.private_key });
    expect((await stream('sigInt1.m3u8')).status).toBe(403);
    expect((await stream(`sigInt1.m3u8?token=${token}`)).status).toBe(200);

    await call('DeleteSigningKey', { id: key.id });
    const refused = await stream(`sigInt1.m3u8?token=${token}`);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ error: { type: 'forbidden', messages: ['Token signing key is unknown or was deleted'] } });
  });

  describe('with a real HLS rendition made by ffmpeg', () => {
    beforeAll(async () => {
      const hls = path.join(dataDir, 'made');
      fs.mkdirSync(hls);
      // the server runs in this process: ffmpeg and ffprobe must never block the event loop
      await promisify(execFile)(tool('ffmpeg'), [
        ...['-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=320x180:rate=25', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000'],
        ...['-t', '4', '-c:v', 'libx264', '-preset', 'ultrafast', '-g', '50', '-pix_fmt', 'yuv420p', '-c:a', 'aac'],
        ...[
          '-f',
          'hls',
          '-hls_time',
          '2',
          '-hls_playlist_type',
          'vod',
          '-hls_segment_filename',
          path.join(hls, 'segment_%03d.ts'),
          path.join(hls, 'index.m3u8'),
        ],
      ]);
      const store = createObjectStore(config);
      for (const file of fs.readdirSync(hls)) await store.putFile(assetKeys.hls('asset-made', `source/${file}`), path.join(hls, file));
      await store.putBuffer(
        assetKeys.hls('asset-made', 'master.m3u8'),
        '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=400000,RESOLUTION=320x180,CODECS="avc1.42c00d,mp4a.40.2"\nsource/index.m3u8\n',
      );
      owners.set('madePub1', { id: 'madePub1', policy: 'public', object: { type: 'asset', id: 'asset-made' }, status: 'ready', renditions: [] });
      owners.set('madeSig1', { id: 'madeSig1', policy: 'signed', object: { type: 'asset', id: 'asset-made' }, status: 'ready', renditions: [] });
    });

    const ffprobe = async (url: string) => {
      const { stdout } = await promisify(execFile)(tool('ffprobe'), ['-v', 'error', '-show_format', '-show_streams', '-of', 'json', url]);
      return JSON.parse(stdout) as { format: { format_name: string; duration: string }; streams: Array<{ codec_name: string }> };
    };

    it('ffprobe plays a public playback id: master, variant and segments with their grants', async () => {
      const played = await ffprobe(`http://127.0.0.1:${config.streamPort}/madePub1.m3u8`);
      expect(played.format.format_name).toBe('hls');
      expect(Number(played.format.duration)).toBeCloseTo(4, 0);
      expect(played.streams.map((s) => s.codec_name).sort()).toEqual(['aac', 'h264']);
    });

    it('ffprobe plays a signed playback id with the SDK token on the master URL only', async () => {
      const key = await call<{ id: string; private_key: string }>('CreateSigningKey', {});
      const token = await mux.jwt.signPlaybackId('madeSig1', { keyId: key.id, keySecret: key.private_key });
      const played = await ffprobe(`http://127.0.0.1:${config.streamPort}/madeSig1.m3u8?token=${token}`);
      expect(played.streams.map((s) => s.codec_name).sort()).toEqual(['aac', 'h264']);
      await expect(ffprobe(`http://127.0.0.1:${config.streamPort}/madeSig1.m3u8`)).rejects.toThrow(/403/);
    });
  });

  it('answers 503 while the assets service is down', async () => {
    await new Promise<void>((resolve) => assetsServer.tryShutdown(() => resolve()));
    const res = await stream('pubInt1.m3u8');
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ error: { type: 'service_unavailable', messages: ['Playback is temporarily unavailable; try again'] } });
  });
});
