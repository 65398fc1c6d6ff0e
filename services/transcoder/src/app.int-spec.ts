import { execFileSync } from 'node:child_process';
import { createReadStream, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Controller, INestMicroservice, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ClientGrpcProxy, ClientProxyFactory } from '@nestjs/microservices';
import { loadConfig, PlatformConfig } from '@platform/config';
import { DomainError } from '@platform/errors';
import { closeEventBus, getEventBus, PlatformEvent, topicOf } from '@platform/events';
import { Closable, GrpcExceptionFilter, grpcClientOptions, grpcServerOptions } from '@platform/grpc';
import { assets, common, transcoder } from '@platform/proto';
import { assetBody, createTestDatabase, eventually, freePort, testEvent } from '@platform/testing';
import { Client } from 'pg';
import { lastValueFrom } from 'rxjs';
import { bootstrap } from './main';

const ffmpegScript = resolve(__dirname, '../../../scripts/infra/ffmpeg.sh');
const tool = (name: string) => execFileSync('bash', [ffmpegScript, name], { encoding: 'utf8' }).trim();

/** The assets service's processing RPCs, answering from a map and recording every call. */
const fakeAssets = {
  specs: new Map<string, assets.IngestSpec>(),
  calls: [] as string[],
  trackSpecs: new Map<string, assets.TrackSpec>(),
  trackStatuses: [] as assets.SetTrackStatusRequest[],
};

@Controller()
@assets.AssetProcessingServiceControllerMethods()
class FakeAssetProcessingController implements assets.AssetProcessingServiceController {
  getIngestSpec(request: common.IdRequest): assets.IngestSpec {
    fakeAssets.calls.push(`getIngestSpec ${request.id}`);
    const spec = fakeAssets.specs.get(request.id);
    if (!spec) throw DomainError.notFound('Asset');
    return spec;
  }
  recordProbe(request: assets.RecordProbeRequest): assets.Asset {
    fakeAssets.calls.push(`recordProbe ${request.asset_id} ${request.resolution_tier} ${request.duration?.toFixed(0)}`);
    return {} as assets.Asset;
  }
  markReady(request: assets.MarkReadyRequest): assets.Asset {
    fakeAssets.calls.push(`markReady ${request.asset_id}`);
    const known = fakeAssets.specs.get(request.asset_id);
    if (known) known.status = 'ready';
    return {} as assets.Asset;
  }
  markErrored(request: assets.MarkErroredRequest): assets.Asset {
    fakeAssets.calls.push(`markErrored ${request.asset_id} ${request.errors?.messages.join(' ')}`);
    return {} as assets.Asset;
  }
  setTrackStatus(request: assets.SetTrackStatusRequest): assets.Asset {
    fakeAssets.calls.push(`setTrackStatus ${request.asset_id} ${request.track_id} ${request.status}`);
    fakeAssets.trackStatuses.push(request);
    const spec = fakeAssets.trackSpecs.get(request.track_id);
    if (spec?.track) spec.track.status = request.status;
    return {} as assets.Asset;
  }
  getTrackSpec(request: assets.TrackRequest): assets.TrackSpec {
    fakeAssets.calls.push(`getTrackSpec ${request.asset_id} ${request.track_id}`);
    const spec = fakeAssets.trackSpecs.get(request.track_id);
    if (!spec) throw DomainError.notFound('Track');
    return spec;
  }
  reportWarning(request: assets.ReportWarningRequest): assets.Asset {
    fakeAssets.calls.push(`reportWarning ${request.asset_id} ${request.warning?.type}`);
    return {} as assets.Asset;
  }
}

const spec = (assetId: string, url: string): assets.IngestSpec => ({
  asset_id: assetId,
  status: 'preparing',
  input: [{ url, generated_subtitles: [] }],
  test: false,
  max_resolution_tier: '1080p',
  encoding_tier: 'smart',
  video_quality: 'plus',
  normalize_audio: false,
});

@Module({ controllers: [FakeAssetProcessingController] })
class FakeAssetsModule {}

const created = (assetId: string): PlatformEvent => testEvent('video.asset.created', assetBody(assetId), `created-${assetId}`);

/**
 * The service as it runs: its AppModule on Postgres and the in-process bus, a fake assets service on
 * gRPC, the filesystem store. `video.asset.created` → job → pipeline → stored HLS → GetJob says done.
 */
describe('transcoder service', () => {
  let db: { url: string; drop(): Promise<void> };
  let dataDir: string;
  let config: PlatformConfig;
  let app: Closable;
  let fakeAssetsServer: INestMicroservice;
  let files: http.Server;
  let filesUrl: string;
  let client: transcoder.TranscoderServiceClient;
  let clientProxy: ClientGrpcProxy;

  beforeAll(async () => {
    db = await createTestDatabase('transcoder');
    dataDir = mkdtempSync(join(tmpdir(), 'transcoder-app-'));
    execFileSync(tool('ffmpeg'), [
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=640x360:rate=30:duration=3',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:sample_rate=48000:duration=3',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      join(dataDir, 'clip.mp4'),
    ]);
    writeFileSync(join(dataDir, 'en.srt'), '1\n00:00:00,500 --> 00:00:01,500\n<i>Hello</i> there\n\n2\n00:00:02,000 --> 00:00:01,000\nbackwards\n');
    writeFileSync(join(dataDir, 'notes.txt'), 'no subtitles here\n');
    execFileSync(tool('ffmpeg'), ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=300:sample_rate=44100:duration=2', join(dataDir, 'fr.wav')]);
    // MPEG-4 Part 2 is not standard: no source rendition, the ladder is what is running when the worker stops
    execFileSync(tool('ffmpeg'), [
      ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=30:duration=25'],
      ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000:duration=25', '-c:v', 'mpeg4', '-q:v', '5', '-c:a', 'aac'],
      join(dataDir, 'slow.mkv'),
    ]);
    files = http.createServer((req, res) => {
      const file = join(dataDir, req.url!.slice(1));
      res.writeHead(200, { 'content-length': statSync(file).size });
      createReadStream(file).pipe(res);
    });
    await new Promise<void>((r) => files.listen(0, '127.0.0.1', r));
    filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;

    const base = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'error' });
    config = {
      ...base,
      databaseUrl: db.url,
      grpcUrls: { ...base.grpcUrls, assets: `127.0.0.1:${await freePort()}`, transcoder: `127.0.0.1:${await freePort()}` },
      media: { ...base.media, ffmpegPath: tool('ffmpeg'), ffprobePath: tool('ffprobe') },
      // a lease far longer than any test here: a slow renewal on a busy machine never hands a job to a second attempt,
      // and the restart below is seen to take its job back at once, not after the lease
      transcoder: { concurrency: 1, ingestConcurrency: 2, taskConcurrency: 1, leaseSeconds: 120, maxAttempts: 3, pollMs: 200 },
    };
    fakeAssetsServer = await NestFactory.createMicroservice(FakeAssetsModule, { ...grpcServerOptions('assets', config), logger: false });
    fakeAssetsServer.useGlobalFilters(new GrpcExceptionFilter());
    await fakeAssetsServer.listen();
    await start();
    clientProxy = ClientProxyFactory.create(grpcClientOptions('transcoder', config)) as unknown as ClientGrpcProxy;
    client = clientProxy.getService<transcoder.TranscoderServiceClient>(transcoder.TRANSCODER_SERVICE_NAME);
  }, 120_000);

  afterAll(async () => {
    clientProxy?.close();
    await app?.close();
    await closeEventBus();
    await fakeAssetsServer?.close();
    files?.closeAllConnections();
    await new Promise((r) => files?.close(r));
    await db?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const start = async () => {
    app = await bootstrap(config);
    await getEventBus(config).start();
  };
  const job = (id: string) => lastValueFrom(client.getJob({ id }));
  /** The job row as Postgres has it (also while the service is down). */
  const jobRow = async (assetId: string) => {
    const pg = new Client({ connectionString: db.url });
    await pg.connect();
    try {
      const { rows } = await pg.query(
        `SELECT "status", "phase", "attempts", "worker", "lease_expires_at" <= now() AS "due", "id" FROM "transcoder"."jobs" WHERE "asset_id" = $1`,
        [assetId],
      );
      return rows[0] as { status: string; phase: string; attempts: number; worker: string; due: boolean; id: string } | undefined;
    } finally {
      await pg.end();
    }
  };

  it('turns video.asset.created into stored HLS and a done job, through its ingest and ladder phases', async () => {
    fakeAssets.specs.set('asset-ok', spec('asset-ok', `${filesUrl}/clip.mp4`));
    await getEventBus(config).publish(topicOf('video.asset.created'), 'asset-ok', created('asset-ok'));
    await getEventBus(config).publish(topicOf('video.asset.created'), 'asset-ok', created('asset-ok')); // redelivered

    await eventually(async () => expect((await job('asset-ok')).status).toBe('done'), { timeoutMs: 60_000 });
    const done = await job('asset-ok');
    expect(done).toMatchObject({ asset_id: 'asset-ok', status: 'done', phase: 'ladder', playable: true, attempts: 1 });
    expect(done.worker).toMatch(/^[^:]+:\d+:[0-9a-f]{6}$/);
    expect(Number(done.worker!.split(':')[1])).toBe(process.pid);
    expect(await job(done.id)).toEqual(done);
    expect(fakeAssets.calls.filter((c) => c.includes('asset-ok'))).toEqual([
      'getIngestSpec asset-ok',
      'recordProbe asset-ok 720p 3',
      'markReady asset-ok',
      'getIngestSpec asset-ok', // the ladder phase
    ]);
    const master = join(dataDir, 'objects', 'assets', 'asset-ok', 'hls', 'master.m3u8');
    const read = JSON.parse(execFileSync(tool('ffprobe'), ['-v', 'error', '-print_format', 'json', '-show_streams', master], { encoding: 'utf8' })) as {
      streams: Array<{ codec_name: string }>;
    };
    expect(new Set(read.streams.map((s) => s.codec_name))).toEqual(new Set(['h264', 'aac']));
    expect(execFileSync('ls', [join(dataDir, 'objects', 'assets', 'asset-ok')], { encoding: 'utf8' }).trim()).toBe('hls'); // the kept input is gone
    expect((await lastValueFrom(client.listJobs({ limit: 10, page: 1 }))).items.map((j) => j.asset_id)).toEqual(['asset-ok']);
    // the event is recorded once, in the transaction that queued the job; the redelivery did nothing
    const pg = new Client({ connectionString: db.url });
    await pg.connect();
    try {
      const { rows } = await pg.query(`SELECT "consumer", "event_id" FROM "transcoder"."processed_events"`);
      expect(rows).toEqual([{ consumer: 'transcoder', event_id: 'created-asset-ok' }]);
    } finally {
      await pg.end();
    }
  }, 90_000);

  it('makes the tracks of a ready asset: subtitles whole and segmented on the video’s timeline, alternate audio the video’s length', async () => {
    const hls = join(dataDir, 'objects', 'assets', 'asset-ok', 'hls');
    const track = (id: string, fields: Partial<assets.Track>, url: string): assets.TrackSpec => ({
      asset_id: 'asset-ok',
      asset_status: 'ready',
      asset_duration: 3,
      track: { id, type: 'text', status: 'preparing', ...fields },
      url: `${filesUrl}/${url}`,
      audio_primary: false,
    });
    fakeAssets.trackSpecs.set('t-srt', track('t-srt', { text_type: 'subtitles', text_source: 'uploaded', name: 'English' }, 'en.srt'));
    fakeAssets.trackSpecs.set('t-bad', track('t-bad', { text_type: 'subtitles', text_source: 'uploaded' }, 'notes.txt'));
    fakeAssets.trackSpecs.set('a-fr', track('a-fr', { type: 'audio', primary: false }, 'fr.wav'));
    for (const [id, type, source] of [
      ['t-srt', 'text', 'uploaded'],
      ['t-bad', 'text', 'uploaded'],
      ['a-fr', 'audio', undefined],
    ] as const) {
      const data = { id, type, asset_id: 'asset-ok', status: 'preparing' as const, ...(source ? { text_source: source } : { primary: false }) };
      await getEventBus(config).publish(topicOf('video.asset.track.created'), id, testEvent('video.asset.track.created', data, `track-${id}`));
    }
    await eventually(() => expect(fakeAssets.trackStatuses.map((r) => r.track_id).sort()).toEqual(['a-fr', 't-bad', 't-srt']), { timeoutMs: 60_000 });
    const status = (id: string) => fakeAssets.trackStatuses.find((r) => r.track_id === id)!;

    expect(status('t-srt')).toMatchObject({ status: 'ready', warning: { type: 'text_track_cues_skipped' } });
    expect(status('t-srt').warning!.message).toBe(
      'Text track t-srt (English): 1 of 2 cues skipped: cue 2 (line 6): it ends before it starts (or when it starts)',
    );
    expect(readFileSync(join(hls, 'text', 't-srt.vtt'), 'utf8')).toBe('WEBVTT\n\n00:00:00.500 --> 00:00:01.500\n<i>Hello</i> there\n');
    const firstVariant = readFileSync(join(hls, 'master.m3u8'), 'utf8')
      .split('\n')
      .find((l) => l !== '' && !l.startsWith('#'))!
      .split('/')[0];
    const videoStart = JSON.parse(
      execFileSync(
        tool('ffprobe'),
        ['-v', 'error', '-show_entries', 'stream=codec_type,start_time', '-of', 'json', join(hls, firstVariant, 'segment_000.ts')],
        {
          encoding: 'utf8',
        },
      ),
    ) as { streams: Array<{ codec_type: string; start_time: string }> };
    const mpegTs = Math.round(Number(videoStart.streams.find((s) => s.codec_type === 'video')!.start_time) * 90_000);
    expect(readFileSync(join(hls, 'text-t-srt', 'segment_000.vtt'), 'utf8')).toBe(
      `WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:${mpegTs},LOCAL:00:00:00.000\n\n00:00:00.500 --> 00:00:01.500\n<i>Hello</i> there\n`,
    );
    expect(readFileSync(join(hls, 'text-t-srt', 'index.m3u8'), 'utf8')).toMatch(/^#EXTM3U\n[^]*#EXTINF:3\.\d+,\nsegment_000\.vtt\n#EXT-X-ENDLIST\n$/);

    expect(status('t-bad')).toMatchObject({ status: 'errored', error: { type: 'invalid_input' } });
    expect(status('t-bad').error!.messages[0]).toMatch(/^The file is neither SubRip \(SRT\) nor WebVTT/);
    expect(existsSync(join(hls, 'text-t-bad'))).toBe(false);

    expect(status('a-fr')).toMatchObject({ status: 'ready', duration: 3, max_channels: 2 });
    expect(readdirSync(join(hls, 'audio-a-fr')).sort()).toEqual(['index.m3u8', 'segment_000.ts']);
    const audio = JSON.parse(
      execFileSync(
        tool('ffprobe'),
        ['-v', 'error', '-show_entries', 'format=duration:stream=codec_name,channels,start_time', '-of', 'json', join(hls, 'audio-a-fr', 'index.m3u8')],
        {
          encoding: 'utf8',
        },
      ),
    ) as { format: { duration: string }; streams: Array<{ codec_name: string; channels: number; start_time: string }> };
    expect(audio.streams).toEqual([expect.objectContaining({ codec_name: 'aac', channels: 2 })]);
    expect(Number(audio.format.duration)).toBeCloseTo(3, 1);
    // its first packet where the variant's own audio has its first packet (both AAC with the same priming)
    const muxed = videoStart.streams.find((s) => s.codec_type === 'audio')!.start_time;
    expect(Number(audio.streams[0].start_time)).toBeCloseTo(Number(muxed), 2);
  }, 90_000);

  it('cancels the job of an asset the assets service no longer knows', async () => {
    await getEventBus(config).publish(topicOf('video.asset.created'), 'asset-gone', created('asset-gone'));
    await eventually(async () => expect((await job('asset-gone')).status).toBe('cancelled'), { timeoutMs: 30_000 });
  }, 60_000);

  it('answers NOT_FOUND for an unknown job', async () => {
    await expect(job('nope')).rejects.toMatchObject({ code: 5, details: expect.stringContaining('Job not found') });
  });

  it('on app.close() mid-ladder ends its ffmpeg, hands the job back uncounted and due at once; restarted, it finishes it', async () => {
    fakeAssets.specs.set('asset-slow', spec('asset-slow', `${filesUrl}/slow.mkv`));
    await getEventBus(config).publish(topicOf('video.asset.created'), 'asset-slow', created('asset-slow'));
    let pid = 0;
    await eventually(
      async () => {
        const row = await jobRow('asset-slow');
        expect(row).toMatchObject({ phase: 'ladder', status: 'running', attempts: 1 });
        const attemptDir = join(dataDir, 'tmp', 'transcoder', row!.id, 'attempt-1');
        pid = Number(readFileSync(join(attemptDir, 'child.pid'), 'utf8'));
        expect(readFileSync(`/proc/${pid}/cmdline`, 'utf8')).toContain('libx264'); // the ladder's ffmpeg
      },
      { timeoutMs: 60_000 },
    );

    await app.close();
    await closeEventBus();
    expect(existsSync(`/proc/${pid}`)).toBe(false); // ended, not orphaned
    expect(ffmpegsUnder(dataDir)).toEqual([]);
    const handedBack = await jobRow('asset-slow');
    expect(handedBack).toMatchObject({ status: 'queued', phase: 'ladder', attempts: 0, due: true });

    await start(); // the restarted worker takes it at once, not after a lease
    await eventually(async () => expect(await jobRow('asset-slow')).toMatchObject({ status: 'done', attempts: 1 }), { timeoutMs: 120_000 });
    expect(fakeAssets.calls.filter((c) => c === 'markReady asset-slow')).toEqual(['markReady asset-slow']);
  }, 240_000);
});

/** Command lines of the ffmpeg processes working under `dir`. */
function ffmpegsUnder(dir: string): string[] {
  const out = execFileSync('ps', ['-eo', 'args='], { encoding: 'utf8' });
  return out.split('\n').filter((l) => l.includes('ffmpeg') && l.includes(dir));
}
