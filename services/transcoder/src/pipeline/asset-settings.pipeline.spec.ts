import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { loadConfig, PlatformConfig } from '@platform/config';
import { assets as proto } from '@platform/proto';
import { FfprobeOutput } from '../media/probe.types';
import { FakeAssetProcessing } from '../testing/fake-asset-processing';
import { FakeMediaRunner, fakeMediaTools } from '../testing/fake-media-runner';
import { InMemoryStore } from '../testing/in-memory-store';
import { JobPhase } from '../jobs/job.entity';
import { keptInputKey, keptOverlayKey } from './input-files';
import { DEFAULT_PIPELINE_SETTINGS, JobContext, PipelineOutcome } from './job-context';
import { TranscodePipeline } from './transcode-pipeline';

/** What the asset settings of issue 13's ladder part do to the pipeline: watermark, normalize_audio, video quality, tier. */

const fixture = (name: string): FfprobeOutput =>
  JSON.parse(readFileSync(join(__dirname, '../media/fixtures', `${name}.ffprobe.json`), 'utf8')) as FfprobeOutput;
const ASSET = 'asset-1';
const WATERMARK: proto.AssetInput = {
  url: '',
  generated_subtitles: [],
  overlay_settings: { vertical_align: 'bottom', vertical_margin: '5%', horizontal_align: 'right', horizontal_margin: '5%', width: '10%' },
};
const graphOf = (args: string[]) => args[args.indexOf('-filter_complex') + 1];

describe('TranscodePipeline with the asset settings of the ladder (watermark, normalize_audio, video_quality, tier)', () => {
  let server: http.Server;
  let base: string;
  let requests: string[];
  let workDir: string;
  let log: string[];
  let assets: FakeAssetProcessing;
  let store: InMemoryStore;
  let runner: FakeMediaRunner;
  let config: PlatformConfig;

  beforeAll(async () => {
    Logger.overrideLogger(false);
    server = http.createServer((req, res) => {
      requests.push(req.url ?? '');
      if (req.url === '/missing.png') res.writeHead(404).end();
      else res.writeHead(200).end(Buffer.alloc(req.url?.endsWith('.png') ? 64 : 2048, 1));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  beforeEach(() => {
    requests = [];
    workDir = mkdtempSync(join(tmpdir(), 'pipeline-settings-'));
    log = [];
    assets = new FakeAssetProcessing(log);
    store = new InMemoryStore(log);
    runner = new FakeMediaRunner();
    runner.probe = fixture('h264_1080p');
    config = { ...loadConfig({}), dataDir: workDir };
  });
  afterEach(() => rmSync(workDir, { recursive: true, force: true }));

  const context = (phase: JobPhase, inputKey: string | null = null): JobContext => ({
    jobId: 'job-1',
    assetId: ASSET,
    attempt: 1,
    phase,
    inputKey,
    signal: new AbortController().signal,
    workDir,
    checkpoint: async () => void log.push('checkpoint'),
    markPlayable: async () => void log.push('markPlayable'),
    onChild: () => undefined,
  });
  const pipeline = () => new TranscodePipeline(assets, store, fakeMediaTools(runner), config, DEFAULT_PIPELINE_SETTINGS);
  const runBoth = async (): Promise<PipelineOutcome> => {
    const ingested = await pipeline().run(context('ingest'));
    if (ingested.status !== 'ladder') return ingested;
    log.push('-- ladder phase --');
    return pipeline().run(context('ladder', ingested.inputKey));
  };
  const withWatermark = (url: string, extra: Partial<proto.IngestSpec> = {}) =>
    assets.addAsset(ASSET, {
      input: [
        { url: `${base}/clip.mp4`, generated_subtitles: [] },
        { ...WATERMARK, url },
      ],
      ...extra,
    });
  const ladderArgs = () => runner.ffmpegRuns.find((args) => args.includes('libx264'))!;

  describe('a watermark input', () => {
    it('is downloaded and checked first; the asset gets no source rendition and becomes ready with its ladder, the image burnt in', async () => {
      withWatermark(`${base}/mark.png`);
      expect(await runBoth()).toEqual({ status: 'done' });
      expect(requests).toEqual(['/mark.png', '/clip.mp4']);
      expect(log).not.toContain('markPlayable');
      expect(runner.ffmpegRuns.some((args) => args.includes('copy'))).toBe(false);
      const ladderPhase = log.slice(log.indexOf('-- ladder phase --'));
      expect(ladderPhase.filter((l) => !l.endsWith('.ts')).slice(-3)).toEqual(['checkpoint', `put assets/${ASSET}/hls/master.m3u8`, `markReady ${ASSET}`]);
      expect(log).toContain(`put ${keptOverlayKey(ASSET, 0)}`);

      const args = ladderArgs();
      expect(args.slice(args.indexOf('-i'), args.indexOf('-i') + 4)).toEqual(['-i', join(workDir, 'input'), '-i', join(workDir, 'overlay')]);
      // 10 % of 1920 = 192x96; 5 % margins: 96 from the right, 54 from the bottom
      expect(graphOf(args)).toContain(
        '[1:v]scale=192:96,format=rgba[wm0];[0:v:0]scale=1920:1080,setsar=1[base];[base][wm0]overlay=x=1632:y=930:eof_action=repeat,split=5',
      );
    });

    it('takes the image the ingest phase kept, without downloading it again', async () => {
      withWatermark(`${base}/mark.png`, { status: 'ready' });
      await store.putBuffer(keptInputKey(ASSET), Buffer.alloc(10, 2));
      await store.putBuffer(keptOverlayKey(ASSET, 0), Buffer.alloc(10, 3));
      expect(await pipeline().run(context('ladder', keptInputKey(ASSET)))).toEqual({ status: 'done' });
      expect(requests).toEqual([]);
      expect(readFileSync(join(workDir, 'overlay'))).toEqual(Buffer.alloc(10, 3));
      expect(graphOf(ladderArgs())).toContain('overlay=x=1632:y=930');
    });

    it.each([
      [
        'a GIF',
        { format: { format_name: 'gif' }, streams: [{ index: 0, codec_type: 'video', codec_name: 'gif', width: 20, height: 20 }] },
        'The watermark image must be a PNG, JPEG or WebP image, not gif.',
      ],
      [
        'a PNG over 4096 pixels',
        { format: { format_name: 'png_pipe' }, streams: [{ index: 0, codec_type: 'video', codec_name: 'png', width: 5000, height: 200 }] },
        'The watermark image is 5000x200 pixels; the maximum is 4096x4096.',
      ],
    ])('errors the asset (invalid_input) for %s, before downloading the input', async (_name, probe, message) => {
      runner.overlayProbe = probe;
      withWatermark(`${base}/mark.png`);
      expect(await pipeline().run(context('ingest'))).toEqual({ status: 'errored', error: message });
      expect(assets.errored).toEqual([{ assetId: ASSET, errors: { type: 'invalid_input', messages: [message] } }]);
      expect(requests).toEqual(['/mark.png']);
      expect(runner.ffmpegRuns).toEqual([]);
    });

    it('errors the asset when the image cannot be downloaded, naming the image', async () => {
      withWatermark(`${base}/missing.png`);
      const message = 'Unable to download the watermark image: HTTP 404';
      expect(await pipeline().run(context('ingest'))).toEqual({ status: 'errored', error: message });
      expect(assets.errored[0].errors.messages).toEqual([message]);
    });
  });

  describe('normalize_audio', () => {
    it('measures the audio, then normalizes it in the quick source rendition (video still copied) and again in the ladder', async () => {
      assets.addAsset(ASSET, { url: `${base}/clip.mp4`, normalize_audio: true });
      expect(await runBoth()).toEqual({ status: 'done' });
      const [measure, remux, measureAgain, ladder] = runner.ffmpegRuns;
      expect(measure).toContain('aformat=channel_layouts=stereo,loudnorm=I=-23:TP=-1:LRA=11:print_format=json');
      expect(measureAgain).toEqual(measure);
      const second =
        'aformat=channel_layouts=stereo,loudnorm=I=-23:TP=-1:LRA=11:measured_I=-40.00:measured_TP=-30.00:measured_LRA=2.00:measured_thresh=-50.00:offset=0.10:linear=true:print_format=none,aresample=48000';
      expect(remux.slice(remux.indexOf('-c:v'), remux.indexOf('-c:v') + 8)).toEqual(['-c:v', 'copy', '-af', second, '-c:a', 'aac', '-b:a', '128000']);
      expect(graphOf(ladder)).toContain(`[0:a:0]${second},asplit=5[a0][a1][a2][a3][a4]`);
      expect(log).toContain('markPlayable');
    });

    it('leaves silent audio alone (nothing to normalize): the source is a plain stream copy', async () => {
      runner.loudnormLog =
        '[Parsed_loudnorm_1 @ 0x1] \n{\n"input_i" : "-inf",\n"input_tp" : "-inf",\n"input_lra" : "0.00",\n"input_thresh" : "-70.00",\n"target_offset" : "inf"\n}\n';
      assets.addAsset(ASSET, { url: `${base}/clip.mp4`, normalize_audio: true });
      expect(await runBoth()).toEqual({ status: 'done' });
      const remux = runner.ffmpegRuns[1];
      expect(remux.slice(remux.indexOf('-c'), remux.indexOf('-c') + 2)).toEqual(['-c', 'copy']);
      expect(ladderArgs().join(' ')).not.toContain('loudnorm');
    });

    it('measures nothing without audio or without the setting', async () => {
      assets.addAsset(ASSET, { url: `${base}/clip.mp4` });
      await runBoth();
      expect(runner.ffmpegRuns.some((args) => args.join(' ').includes('loudnorm'))).toBe(false);
    });
  });

  describe('video_quality', () => {
    it.each([
      ['basic', 'superfast', ['1080p', '720p', '360p'], '3000000'],
      ['plus', 'veryfast', ['1080p', '720p', '540p', '360p', '270p'], '5000000'],
      ['premium', 'medium', ['1080p', '720p', '540p', '360p', '270p'], '7500000'],
    ])('%s: preset %s, renditions %j, top bit rate %s', async (quality, preset, renditions, topBitrate) => {
      assets.addAsset(ASSET, { url: `${base}/clip.mp4`, video_quality: quality, encoding_tier: '' });
      await runBoth();
      const args = ladderArgs();
      expect(args[args.indexOf('-preset') + 1]).toBe(preset);
      expect(args[args.indexOf('-b:v:0') + 1]).toBe(topBitrate);
      expect(args[args.indexOf('-var_stream_map') + 1]).toBe(renditions.map((name, i) => `v:${i},a:${i},name:${name}`).join(' '));
    });

    it('follows the deprecated encoding_tier when video_quality is not set (baseline is basic)', async () => {
      assets.addAsset(ASSET, { url: `${base}/clip.mp4`, video_quality: '', encoding_tier: 'baseline' });
      await runBoth();
      expect(ladderArgs()[ladderArgs().indexOf('-preset') + 1]).toBe('superfast');
    });
  });

  describe('max_resolution_tier', () => {
    /** A standard 2048x1152 input: within the standard 2048 pixels, above the 1080p tier. */
    const qwxga = (): FfprobeOutput => {
      const probe = fixture('h264_1080p');
      return { ...probe, streams: probe.streams!.map((s) => (s.codec_type === 'video' ? { ...s, width: 2048, height: 1152 } : s)) };
    };

    it('1080p: a standard input above the tier is not stream-copied (it would deliver more than the tier); the ladder tops at 1920x1080', async () => {
      runner.probe = qwxga();
      assets.addAsset(ASSET, { url: `${base}/clip.mp4` });
      await runBoth();
      expect(runner.ffmpegRuns.some((args) => args.includes('copy'))).toBe(false);
      expect(assets.probes[0]).toMatchObject({ resolution_tier: '1080p' });
      expect(graphOf(ladderArgs())).toContain('[s0]scale=1920:1080,');
    });

    it('1440p: the same input is within the tier, copied for the quick source, and the ladder tops at its own size', async () => {
      runner.probe = qwxga();
      assets.addAsset(ASSET, { url: `${base}/clip.mp4`, max_resolution_tier: '1440p' });
      await runBoth();
      expect(runner.ffmpegRuns[0]).toContain('copy');
      expect(assets.probes[0]).toMatchObject({ resolution_tier: '1440p' });
      expect(graphOf(ladderArgs())).toContain('[s0]scale=2048:1152,');
      // (1080p is within 15 % of 1152 lines: skipped)
      expect(ladderArgs()[ladderArgs().indexOf('-var_stream_map') + 1]).toBe(
        'v:0,a:0,name:1152p v:1,a:1,name:720p v:2,a:2,name:540p v:3,a:3,name:360p v:4,a:4,name:270p',
      );
    });
  });
});
