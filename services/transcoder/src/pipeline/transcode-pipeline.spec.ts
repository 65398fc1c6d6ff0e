import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { loadConfig, PlatformConfig } from '@platform/config';
import { FfprobeOutput } from '../media/probe.types';
import { FakeAssetProcessing } from '../testing/fake-asset-processing';
import { CURRENT_FFMPEG, FakeMediaRunner, fakeMediaTools } from '../testing/fake-media-runner';
import { InMemoryStore } from '../testing/in-memory-store';
import { JobAbort } from '../worker/job-abort';
import { JobPhase } from '../jobs/job.entity';
import { keptInputKey } from './input-files';
import { DEFAULT_PIPELINE_SETTINGS, JobContext, PipelineOutcome } from './job-context';
import { TranscodePipeline } from './transcode-pipeline';

const fixture = (name: string): FfprobeOutput =>
  JSON.parse(readFileSync(join(__dirname, '../media/fixtures', `${name}.ffprobe.json`), 'utf8')) as FfprobeOutput;
const ASSET = 'asset-1';
const hls = (path: string) => `assets/${ASSET}/hls/${path}`;

describe('TranscodePipeline', () => {
  let server: http.Server;
  let base: string;
  let workDir: string;
  let log: string[];
  let assets: FakeAssetProcessing;
  let store: InMemoryStore;
  let runner: FakeMediaRunner;
  let controller: AbortController;
  let checkpoint: jest.Mock<Promise<void>, []>;
  let config: PlatformConfig;

  beforeAll(async () => {
    Logger.overrideLogger(false);
    server = http.createServer((req, res) => {
      if (req.url === '/missing.mp4') res.writeHead(404).end();
      else res.writeHead(200, { 'content-type': 'video/mp4' }).end(Buffer.alloc(2048, 1));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  beforeEach(() => {
    workDir = mkdtempSync(join(tmpdir(), 'pipeline-'));
    log = [];
    assets = new FakeAssetProcessing(log);
    store = new InMemoryStore(log);
    runner = new FakeMediaRunner();
    runner.probe = fixture('h264_1080p');
    controller = new AbortController();
    checkpoint = jest.fn(async () => {
      log.push('checkpoint');
      controller.signal.throwIfAborted();
    });
    config = { ...loadConfig({}), dataDir: workDir };
  });
  afterEach(() => rmSync(workDir, { recursive: true, force: true }));

  const context = (phase: JobPhase = 'ingest', inputKey: string | null = null): JobContext => ({
    jobId: 'job-1',
    assetId: ASSET,
    attempt: 1,
    phase,
    inputKey,
    signal: controller.signal,
    workDir,
    checkpoint,
    markPlayable: async () => void log.push('markPlayable'),
    onChild: () => undefined,
  });
  const pipeline = (features = CURRENT_FFMPEG) => new TranscodePipeline(assets, store, fakeMediaTools(runner, features), config, DEFAULT_PIPELINE_SETTINGS);
  /** The log with the uploads of segments left out. */
  const steps = () => log.filter((l) => !l.endsWith('.ts'));
  /** The ingest phase, then (as an encode slot would) the ladder phase it hands over to; the last outcome. */
  const runBoth = async (features = CURRENT_FFMPEG): Promise<PipelineOutcome> => {
    const ingested = await pipeline(features).run(context('ingest'));
    if (ingested.status !== 'ladder') return ingested;
    log.push('-- ladder phase --');
    return pipeline(features).run(context('ladder', ingested.inputKey));
  };

  it('cancels without any work when the asset no longer exists', async () => {
    expect(await pipeline().run(context())).toEqual({ status: 'cancelled' });
    expect(log).toEqual([`getIngestSpec ${ASSET}`]);
    expect(runner.ffmpegRuns).toEqual([]);
  });

  it('makes a standard input playable from a checked remuxed source in the ingest phase; the ladder phase publishes the ladder', async () => {
    assets.addAsset(ASSET, { url: `${base}/clip.mp4` });
    expect(await pipeline().run(context('ingest'))).toEqual({ status: 'ladder', inputKey: keptInputKey(ASSET) });
    expect(steps()).toEqual([
      `getIngestSpec ${ASSET}`,
      `recordProbe ${ASSET}`,
      `put ${hls('source/index.m3u8')}`,
      'checkpoint',
      `put ${hls('master.m3u8')}`,
      `markReady ${ASSET}`,
      'markPlayable',
      `put ${keptInputKey(ASSET)}`,
    ]);
    // each variant's segments are stored before its playlist
    const sourcePlaylist = log.indexOf(`put ${hls('source/index.m3u8')}`);
    expect(log.indexOf(`put ${hls('source/segment_000.ts')}`)).toBeLessThan(sourcePlaylist);
    expect(log.indexOf(`put ${hls('source/segment_001.ts')}`)).toBeLessThan(sourcePlaylist);
    expect(store.objects.get(keptInputKey(ASSET))!.body).toEqual(Buffer.alloc(2048, 1)); // what was downloaded

    log.length = 0;
    expect(await pipeline().run(context('ladder', keptInputKey(ASSET)))).toEqual({ status: 'done' });
    expect(steps()).toEqual([
      `getIngestSpec ${ASSET}`,
      ...['1080p', '720p', '540p', '360p', '270p'].map((v) => `put ${hls(`${v}/index.m3u8`)}`),
      'checkpoint',
      `put ${hls('master.m3u8')}`,
    ]);
    const [remux, ladder] = runner.ffmpegRuns;
    expect(remux).toContain('copy');
    expect(remux[remux.indexOf('-i') + 1]).toBe(join(workDir, 'input'));
    expect(ladder).toContain('libx264');
    expect(ladder).not.toContain('-t');
    // the final master lists the ladder; the source files stay for players holding the first master
    const master = store.text(hls('master.m3u8'))!;
    expect(master.match(/^[^#].*$/gm)).toEqual(['1080p/index.m3u8', '720p/index.m3u8', '540p/index.m3u8', '360p/index.m3u8', '270p/index.m3u8']);
    expect(master).toContain('#EXT-X-STREAM-INF:BANDWIDTH=100000,AVERAGE-BANDWIDTH=93334,CODECS="avc1.64001e,mp4a.40.2",RESOLUTION=640x360,FRAME-RATE=30.000');
    expect(store.objects.has(hls('source/segment_000.ts'))).toBe(true);
  });

  it('errors a clip whose source media is gone (the source deleted after the clip was created), running no ffmpeg', async () => {
    assets.addAsset(ASSET, { url: 'svc://assets/gone', clip: { source_asset_id: 'gone', start_time: 1, end_time: 3 } });
    expect(await pipeline().run(context('ingest'))).toEqual({
      status: 'errored',
      error: 'The source asset gone has no stored media to clip (it was deleted, or is being deleted).',
    });
    expect(assets.errored).toEqual([
      {
        assetId: ASSET,
        errors: { type: 'invalid_input', messages: ['The source asset gone has no stored media to clip (it was deleted, or is being deleted).'] },
      },
    ]);
    expect(runner.ffmpegRuns).toEqual([]);
  });

  it('errors a clip when the source rendition holds nothing at the cut', async () => {
    assets.addAsset(ASSET, { url: 'svc://assets/short', clip: { source_asset_id: 'short', start_time: 30, end_time: 40 } });
    await store.putBuffer('assets/short/hls/source/index.m3u8', '#EXTM3U\n#EXTINF:4.000000,\nsegment_000.ts\n#EXT-X-ENDLIST\n');
    expect(await pipeline().run(context('ingest'))).toMatchObject({ status: 'errored', error: 'The source asset short holds no media between 30 s and 40 s.' });
  });

  it('encodes the ladder from the kept input, and from the asset input again when the kept copy is gone', async () => {
    assets.addAsset(ASSET, { url: `${base}/clip.mp4`, status: 'ready' });
    await store.putBuffer(keptInputKey(ASSET), Buffer.alloc(100, 9));
    let read: Buffer | undefined;
    runner.onFfmpeg = (args) => (read ??= readFileSync(args[args.indexOf('-i') + 1]));
    expect(await pipeline().run(context('ladder', keptInputKey(ASSET)))).toEqual({ status: 'done' });
    expect(read).toEqual(Buffer.alloc(100, 9));

    store.objects.delete(keptInputKey(ASSET));
    read = undefined;
    expect(await pipeline().run(context('ladder', keptInputKey(ASSET)))).toEqual({ status: 'done' });
    expect(read).toEqual(Buffer.alloc(2048, 1)); // downloaded again
  });

  it('errors a truncated input whose source rendition plays far shorter than the input declares, before recording its probe', async () => {
    runner.probe = { ...fixture('h264_1080p'), format: { ...fixture('h264_1080p').format, duration: '90.000000' } };
    runner.probe.streams = runner.probe.streams!.map((s) => ({ ...s, duration: '90.000000' }));
    runner.segmentsWhen.set('copy', [0.066667]);
    assets.addAsset(ASSET, { url: `${base}/clip.mp4` });
    const message = 'The input file is incomplete: it declares 90.0 seconds of media but only 0.1 seconds could be read (a truncated or damaged file).';
    expect(await pipeline().run(context('ingest'))).toEqual({ status: 'errored', error: message });
    expect(assets.errored).toEqual([{ assetId: ASSET, errors: { type: 'invalid_input', messages: [message] } }]);
    expect(steps()).toEqual([`getIngestSpec ${ASSET}`, 'checkpoint', `markErrored ${ASSET}`]);
    expect(store.objects.size).toBe(0);
  });

  it('errors a non-standard truncated input when its encoded ladder plays far shorter than declared, and lists nothing', async () => {
    runner.probe = { ...fixture('hevc_720p'), format: { ...fixture('hevc_720p').format, duration: '90.000000' } };
    runner.probe.streams = runner.probe.streams!.map((s) => ({ ...s, duration: '90.000000' }));
    runner.segmentsWhen.set('libx264', [4, 4]);
    assets.addAsset(ASSET, { url: `${base}/clip.mkv` });
    const outcome = await runBoth();
    expect(outcome.status).toBe('errored');
    expect((outcome as { error: string }).error).toContain('it declares 90.0 seconds of media but only 8.0 seconds');
    expect(assets.errored).toEqual([{ assetId: ASSET, errors: { type: 'invalid_input', messages: [expect.stringContaining('incomplete')] } }]);
    expect([...store.objects.keys()].filter((k) => k.includes('/hls/'))).toEqual([]);
  });

  it.each([
    ['lasts no time at all (BANDWIDTH would be 1)', () => runner.segmentsWhen.set('copy', [0])],
    ['does not decode', () => (runner.decodedFrames = 0)],
  ])('drops a source rendition that %s and makes the asset ready from its ladder only', async (_name, arrange) => {
    arrange();
    runner.probe = { ...fixture('h264_1080p'), format: { ...fixture('h264_1080p').format, duration: '0.5' } };
    runner.probe.streams = runner.probe.streams!.map((s) => ({ ...s, duration: '0.5' }));
    if (runner.decodedFrames === 0) runner.onFfmpeg = (args) => args.includes('libx264') && (runner.decodedFrames = 5);
    assets.addAsset(ASSET, { url: `${base}/clip.mp4` });
    expect(await runBoth()).toEqual({ status: 'done' });
    expect(steps().filter((s) => s.includes('source') || s.includes('markPlayable'))).toEqual([]);
    expect(steps().slice(-2)).toEqual([`put ${hls('master.m3u8')}`, `markReady ${ASSET}`]);
    expect(store.text(hls('master.m3u8'))).not.toContain('BANDWIDTH=1,');
  });

  it('records the probe as the asset fields, tracks, reasons and input-info', async () => {
    assets.addAsset(ASSET, { url: `${base}/clip.mp4` });
    await pipeline().run(context());
    expect(assets.probes).toEqual([
      {
        asset_id: ASSET,
        duration: 2,
        max_stored_resolution: 'FHD',
        resolution_tier: '1080p',
        max_stored_frame_rate: 30,
        aspect_ratio: '16:9',
        tracks: [
          { id: '', type: 'video', duration: 2, max_width: 1920, max_height: 1080, max_frame_rate: 30 },
          { id: '', type: 'audio', duration: 2, max_channels: 2, primary: true },
        ],
        non_standard_input_reasons: {},
        input_info: [
          {
            settings: undefined, // the assets service gives each input its stored settings
            file: {
              container_format: 'mov,mp4,m4a,3gp,3g2,mj2',
              tracks: [
                { type: 'video', duration: 2, width: 1920, height: 1080, frame_rate: 30, encoding: 'h264' },
                { type: 'audio', duration: 2, encoding: 'aac', sample_rate: 48000, sample_size: 32, channels: 2 },
              ],
            },
          },
        ],
        recording_times: [],
      },
    ]);
  });

  it('ingests a direct upload from its stored file, its input-info settings left to the assets service', async () => {
    await store.putBuffer('uploads/up1/source', Buffer.alloc(4096, 7));
    assets.addAsset(ASSET, { input: [{ object_key: 'uploads/up1/source', generated_subtitles: [] }] });
    // nothing kept for the ladder: it reads the stored upload again
    expect(await pipeline().run(context())).toEqual({ status: 'ladder', inputKey: null });
    expect(runner.ffmpegRuns[0][runner.ffmpegRuns[0].indexOf('-i') + 1]).toBe(join(workDir, 'input'));
    expect(readFileSync(join(workDir, 'input'))).toEqual(Buffer.alloc(4096, 7));
    expect(assets.probes[0].input_info).toEqual([expect.objectContaining({ settings: undefined })]);
    expect(steps()).toContain(`markReady ${ASSET}`);
    expect(store.objects.has(keptInputKey(ASSET))).toBe(false);
    expect(await pipeline().run(context('ladder', null))).toEqual({ status: 'done' });
  });

  it('errors an upload asset whose stored file is gone (invalid_input)', async () => {
    assets.addAsset(ASSET, { input: [{ object_key: 'uploads/gone/source', generated_subtitles: [] }] });
    expect(await pipeline().run(context())).toEqual({ status: 'errored', error: 'The uploaded file is missing from storage.' });
    expect(assets.errored).toEqual([{ assetId: ASSET, errors: { type: 'invalid_input', messages: ['The uploaded file is missing from storage.'] } }]);
  });

  it('encodes a non-standard input first and marks it ready only once its master is stored', async () => {
    runner.probe = fixture('hevc_720p');
    assets.addAsset(ASSET, { url: `${base}/clip.mkv` });
    expect(await runBoth()).toEqual({ status: 'done' });
    expect(runner.ffmpegRuns).toHaveLength(1);
    expect(steps()).toEqual([
      `getIngestSpec ${ASSET}`,
      `recordProbe ${ASSET}`,
      `put ${keptInputKey(ASSET)}`,
      '-- ladder phase --',
      `getIngestSpec ${ASSET}`,
      ...['720p', '540p', '360p', '270p'].map((v) => `put ${hls(`${v}/index.m3u8`)}`),
      'checkpoint',
      `put ${hls('master.m3u8')}`,
      `markReady ${ASSET}`,
    ]);
    expect(assets.probes[0].non_standard_input_reasons).toEqual({ video_codec: 'hevc' });
    expect([...store.objects.keys()].some((k) => k.includes('/source/'))).toBe(false);
  });

  it('cuts and watermarks a test asset, with its durations capped at 10 s, and never remuxes it', async () => {
    runner.probe = { ...fixture('h264_1080p'), format: { ...fixture('h264_1080p').format, duration: '25.000000' } };
    runner.probe.streams = runner.probe.streams!.map((s) => ({ ...s, duration: '25.000000' }));
    runner.segmentsWhen.set('libx264', [4, 4, 2]); // the 10 s a test asset keeps
    assets.addAsset(ASSET, { url: `${base}/clip.mp4`, test: true });
    await runBoth({ ...CURRENT_FFMPEG, watermark: 'drawbox=t=fill' });
    expect(runner.ffmpegRuns).toHaveLength(1);
    const [ladder] = runner.ffmpegRuns;
    expect(ladder.slice(ladder.indexOf('-t'), ladder.indexOf('-t') + 2)).toEqual(['-t', '10']);
    expect(ladder[ladder.indexOf('-filter_complex') + 1]).toMatch(/^\[0:v:0\]drawbox=t=fill,split=5/);
    expect(assets.probes[0].duration).toBe(10);
    expect(assets.probes[0].tracks.map((t) => t.duration)).toEqual([10, 10]);
    expect(steps().slice(-2)).toEqual([`put ${hls('master.m3u8')}`, `markReady ${ASSET}`]);
  });

  it('does not remux a rotated phone clip (MPEG-TS cannot carry the rotation)', async () => {
    runner.probe = fixture('rotated');
    assets.addAsset(ASSET, { url: `${base}/phone.mp4` });
    await runBoth();
    expect(runner.ffmpegRuns.map((r) => r.includes('copy'))).toEqual([false]);
  });

  it('drops the remux when the packet scan finds a GOP over 20 s, and records the reason', async () => {
    runner.packets = [
      { pts_time: '0.000000', size: '1000', flags: 'K__' },
      { pts_time: '21.000000', size: '1000', flags: '___' },
      { pts_time: '22.000000', size: '1000', flags: 'K__' },
    ];
    assets.addAsset(ASSET, { url: `${base}/clip.mp4` });
    await runBoth();
    expect(runner.ffmpegRuns.map((r) => r.includes('copy'))).toEqual([true, false]); // remuxed in parallel with the scan, then not used
    expect(assets.probes[0].non_standard_input_reasons).toEqual({ video_gop_size: 'high' });
    expect(steps().filter((s) => s.includes('source') || s.includes('markPlayable'))).toEqual([]);
  });

  it('goes on with the ladder alone when the remux fails', async () => {
    runner.failFfmpegWhen = 'copy';
    assets.addAsset(ASSET, { url: `${base}/clip.mp4` });
    expect(await runBoth()).toEqual({ status: 'done' });
    expect(steps().slice(-2)).toEqual([`put ${hls('master.m3u8')}`, `markReady ${ASSET}`]);
  });

  it('uploads the index-named folders of the legacy muxer under the variant names', async () => {
    assets.addAsset(ASSET, { url: `${base}/clip.mp4` });
    await runBoth({ ...CURRENT_FFMPEG, legacyHlsMuxer: true });
    expect(runner.ffmpegRuns.every((r) => !r.includes('-master_pl_name'))).toBe(true);
    const stored = [...store.objects.keys()].filter((k) => k.endsWith('index.m3u8')).sort();
    expect(stored).toEqual(['1080p', '270p', '360p', '540p', '720p', 'source'].map((v) => hls(`${v}/index.m3u8`)));
  });

  it.each([
    ['an unreachable URL', { url: 'http://127.0.0.1:1/a.mp4' }, () => undefined, 'Unable to download input file: the connection to the server failed'],
    [
      'a cloud metadata URL',
      { url: 'http://169.254.169.254/latest/meta-data/' },
      () => undefined,
      'Unable to download input file: 169.254.169.254 is a cloud metadata address, which this platform does not connect to',
    ],
    ['an HTTP error', { url: 'MISSING' }, () => undefined, 'Unable to download input file: HTTP 404'],
    ['a file ffprobe cannot read', {}, (r: FakeMediaRunner) => (r.unreadable = true), 'The input file could not be read as media.'],
    [
      'a still image',
      {},
      (r: FakeMediaRunner) =>
        (r.probe = { format: { format_name: 'png_pipe' }, streams: [{ index: 0, codec_type: 'video', codec_name: 'png', width: 64, height: 64 }] }),
      'The input file could not be read as media.',
    ],
    [
      'a file without tracks',
      {},
      (r: FakeMediaRunner) => (r.probe = { format: { format_name: 'mp3', duration: '1' }, streams: [] }),
      'The input file has no video or audio track.',
    ],
    ['no input URL', { url: '' }, () => undefined, 'The asset has no input URL.'],
  ])('marks the asset errored (invalid_input) for %s', async (_name, input, arrange, message) => {
    arrange(runner);
    const given = (input as { url?: string }).url;
    const url = given === undefined ? `${base}/clip.mp4` : given === 'MISSING' ? `${base}/missing.mp4` : given;
    assets.addAsset(ASSET, url ? { url } : {});
    expect(await pipeline().run(context())).toEqual({ status: 'errored', error: message });
    expect(assets.errored).toEqual([{ assetId: ASSET, errors: { type: 'invalid_input', messages: [message] } }]);
    expect(steps()).toEqual([`getIngestSpec ${ASSET}`, 'checkpoint', `markErrored ${ASSET}`]);
    expect(store.objects.size).toBe(0);
  });

  it('takes over an ingest whose asset is already ready straight to the ladder phase: no probe record, no remux', async () => {
    assets.addAsset(ASSET, { url: `${base}/clip.mp4`, status: 'ready' });
    expect(await pipeline().run(context('ingest'))).toEqual({ status: 'ladder', inputKey: null });
    expect(await pipeline().run(context('ladder', null))).toEqual({ status: 'done' });
    expect(runner.ffmpegRuns.map((r) => r.includes('copy'))).toEqual([false]);
    expect(steps().filter((s) => !s.startsWith('put'))).toEqual([`getIngestSpec ${ASSET}`, `getIngestSpec ${ASSET}`, 'checkpoint']);
  });

  it('keeps a ready asset ready when its ladder cannot be made from its input, with a warning instead of an error', async () => {
    assets.addAsset(ASSET, { url: `${base}/missing.mp4`, status: 'ready' });
    const outcome = await pipeline().run(context('ladder', null));
    expect(outcome).toEqual({ status: 'errored', error: 'Unable to download input file: HTTP 404' });
    expect(assets.errored).toEqual([]);
    expect(assets.warnings).toEqual([
      {
        assetId: ASSET,
        warning: {
          type: 'renditions_failed',
          message: 'The encoded renditions could not be made, so the asset plays from its source rendition only: Unable to download input file: HTTP 404',
        },
      },
    ]);
    expect(assets.specs.get(ASSET)!.status).toBe('ready');
  });

  it('keeps a ready asset ready when its encoded ladder turns out unplayable, and lists none of it', async () => {
    assets.addAsset(ASSET, { url: `${base}/clip.mp4`, status: 'ready' });
    runner.decodedFrames = 0;
    expect(await pipeline().run(context('ladder', null))).toMatchObject({ status: 'errored' });
    expect(assets.warnings.map((w) => w.warning.type)).toEqual(['renditions_failed']);
    expect([...store.objects.keys()].filter((k) => k.includes('/hls/'))).toEqual([]);
  });

  it('leaves an asset that is already errored alone', async () => {
    assets.addAsset(ASSET, { url: `${base}/clip.mp4`, status: 'errored' });
    expect(await pipeline().run(context())).toEqual({ status: 'errored', error: 'The asset was already errored.' });
    expect(runner.ffmpegRuns).toEqual([]);
  });

  it('writes no master once the lease is lost, and throws the abort reason', async () => {
    runner.probe = fixture('hevc_720p');
    assets.addAsset(ASSET, { url: `${base}/clip.mkv` });
    checkpoint.mockImplementation(async () => {
      controller.abort(new JobAbort('lease_lost'));
      controller.signal.throwIfAborted();
    });
    await expect(runBoth()).rejects.toMatchObject({ kind: 'lease_lost' });
    expect(store.objects.has(hls('master.m3u8'))).toBe(false);
    expect(log).not.toContain(`markReady ${ASSET}`);
  });

  it('stops the running ffmpeg when the job is aborted', async () => {
    runner.probe = fixture('hevc_720p');
    runner.hold = new Promise(() => undefined);
    assets.addAsset(ASSET, { url: `${base}/clip.mkv` });
    const run = pipeline().run(context('ladder'));
    setTimeout(() => controller.abort(new JobAbort('cancelled')), 50);
    await expect(run).rejects.toMatchObject({ name: 'MediaAbortedError', reason: { kind: 'cancelled' } });
    expect(log).not.toContain(`markErrored ${ASSET}`);
  });

  it('lets a failure of the assets service through, for a retry', async () => {
    assets.addAsset(ASSET, { url: `${base}/clip.mp4` });
    assets.failWith = Object.assign(new Error('14 UNAVAILABLE: No connection established'), { code: 14 });
    await expect(pipeline().run(context())).rejects.toThrow('UNAVAILABLE');
  });
});
