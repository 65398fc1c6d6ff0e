import { execFileSync } from 'node:child_process';
import { createReadStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Logger } from '@nestjs/common';
import { loadConfig, PlatformConfig } from '@platform/config';
import { GrpcStatus } from '@platform/errors';
import { FsObjectStore } from '@platform/storage';
import { MediaTools } from '../media/media-tools';
import { isFaststart, readTopLevelBoxes } from '../media/mp4-boxes';
import { FfprobeOutput } from '../media/probe.types';
import { DEFAULT_PIPELINE_SETTINGS } from '../pipeline/job-context';
import { TranscodePipeline } from '../pipeline/transcode-pipeline';
import { FakeAssetProcessing } from '../testing/fake-asset-processing';
import { FakeStaticRenditionWork, planned } from '../testing/fake-static-rendition-work';
import { TaskContext } from '../tasks/task-handler';
import { MasterHandler } from './master.handler';
import { StaticRenditionHandler } from './static-rendition.handler';
import { MediaRunner } from '@platform/media';

const script = resolve(__dirname, '../../../../scripts/infra/ffmpeg.sh');
const tool = (name: 'ffmpeg' | 'ffprobe') => execFileSync('bash', [script, name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

/**
 * Static renditions and the master with real ffmpeg on the filesystem store: a 4 s 1280x720 clip goes
 * through the real pipeline (source rendition, then the 720p/540p/360p/270p ladder), then the tasks
 * make their files from what it stored.
 */
describe('static renditions and master with real ffmpeg', () => {
  let dir: string;
  let store: FsObjectStore;
  let ffprobe: string;
  let config: PlatformConfig;
  const runs: string[][] = [];
  let media: Pick<MediaTools, 'get'>;

  beforeAll(async () => {
    Logger.overrideLogger(['error']);
    const ffmpeg = tool('ffmpeg');
    ffprobe = tool('ffprobe');
    dir = mkdtempSync(join(tmpdir(), 'static-int-'));
    execFileSync(ffmpeg, [
      ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=30:duration=4'],
      ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000:duration=4'],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-g', '60', '-c:a', 'aac', '-ac', '2', join(dir, 'hd.mp4')],
    ]);
    const server = http.createServer((req, res) => {
      const file = join(dir, decodeURIComponent(req.url!.slice(1)));
      res.writeHead(200, { 'content-length': statSync(file).size });
      createReadStream(file).pipe(res);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hd.mp4`;

    config = { ...loadConfig({}), dataDir: join(dir, 'data'), media: { ...loadConfig({}).media, ffmpegPath: ffmpeg, ffprobePath: ffprobe } };
    store = new FsObjectStore(join(config.dataDir, 'objects'));
    const tools = new MediaTools(config);
    const assets = new FakeAssetProcessing();
    assets.addAsset('hd', { url });
    const pipeline = new TranscodePipeline(assets, store, tools, config, { ...DEFAULT_PIPELINE_SETTINGS, segmentSeconds: 2, preset: 'ultrafast' });
    const phase = (p: 'ingest' | 'ladder', inputKey: string | null) =>
      pipeline.run({
        ...{ jobId: 'job-hd', assetId: 'hd', attempt: 1, phase: p, inputKey, signal: new AbortController().signal },
        ...{ workDir: mkdtempSync(join(dir, 'job-')), checkpoint: () => Promise.resolve(), markPlayable: () => Promise.resolve(), onChild: () => undefined },
      });
    const ingested = await phase('ingest', null);
    if (ingested.status !== 'ladder') throw new Error(`ingest ended ${JSON.stringify(ingested)}`);
    await phase('ladder', ingested.inputKey);
    server.close();

    // the real runner, its ffmpeg argv recorded
    const { runner, features } = await tools.get();
    const spy = Object.assign(Object.create(runner) as MediaRunner, {
      ffmpeg: (args: string[], options: Parameters<MediaRunner['ffmpeg']>[1]) => (runs.push(args), runner.ffmpeg(args, options)),
    });
    media = { get: () => Promise.resolve({ runner: spy, features }) };
  }, 180_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const context = (target: string, kind = 'static_rendition'): TaskContext => ({
    taskId: `t-${target}`,
    assetId: 'hd',
    kind,
    target,
    attempt: 1,
    signal: new AbortController().signal,
    workDir: mkdtempSync(join(dir, 'task-')),
    checkpoint: () => Promise.resolve(),
    onChild: () => undefined,
  });
  const probe = (file: string) =>
    JSON.parse(execFileSync(ffprobe, ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file], { encoding: 'utf8' })) as FfprobeOutput;
  const storedFile = (path: string) => join(config.dataDir, 'objects', 'assets', 'hd', path);
  const inputOf = (args: string[]) => args[args.indexOf('-i') + 1].split('/').slice(-2).join('/');

  it('makes mp4_support’s files as remuxes of the ladder’s own encodes, faststart, reported from the stored files', async () => {
    const work = new FakeStaticRenditionWork();
    work.plans.set('hd/mp4_support', { action: 'make', reason: '', files: [planned('low.mp4', 360), planned('medium.mp4', 540), planned('high.mp4', 720)] });
    const handler = new StaticRenditionHandler(work, store, media);
    runs.length = 0;
    expect(await handler.run(context('mp4_support'))).toEqual({ status: 'done' });

    expect(runs.map((args) => [inputOf(args), args.includes('copy'), args.includes('libx264')])).toEqual([
      ['360p/index.m3u8', true, false],
      ['540p/index.m3u8', true, false],
      ['720p/index.m3u8', true, false],
    ]);
    for (const [name, width, height] of [
      ['low.mp4', 640, 360],
      ['medium.mp4', 960, 540],
      ['high.mp4', 1280, 720],
    ] as const) {
      const file = storedFile(`static/${name}`);
      const read = probe(file);
      expect(read.streams?.map((s) => [s.codec_type, s.codec_name, s.width, s.height])).toEqual([
        ['video', 'h264', width, height],
        ['audio', 'aac', undefined, undefined],
      ]);
      expect(Number(read.format?.duration)).toBeCloseTo(4, 0);
      expect(isFaststart(await readTopLevelBoxes(file))).toBe(true);
      const record = work.records.find((r) => r.name === name)!;
      expect(record).toMatchObject({ asset_id: 'hd', target: 'mp4_support', status: 'ready', width, height, bitrate: Number(read.format?.bit_rate) });
    }
  }, 60_000);

  it('encodes only a size the ladder lacks (480p, from the kept source) and takes audio.m4a from the top rendition', async () => {
    const work = new FakeStaticRenditionWork();
    work.plans.set('hd/r480', { action: 'make', reason: '', files: [planned('480p.mp4', 480)] });
    work.plans.set('hd/raudio', { action: 'make', reason: '', files: [planned('audio.m4a', 0, { video: false })] });
    const handler = new StaticRenditionHandler(work, store, media);
    runs.length = 0;
    expect(await handler.run(context('r480'))).toEqual({ status: 'done' });
    expect(await handler.run(context('raudio'))).toEqual({ status: 'done' });
    expect(runs.map((args) => [inputOf(args), args.includes('libx264')])).toEqual([
      ['source/index.m3u8', true],
      ['720p/index.m3u8', false],
    ]);
    const encoded = probe(storedFile('static/480p.mp4'));
    expect(encoded.streams?.map((s) => [s.codec_name, s.width, s.height])).toEqual([
      ['h264', 852, 480],
      ['aac', undefined, undefined],
    ]);
    const audio = probe(storedFile('static/audio.m4a'));
    expect(audio.streams?.map((s) => s.codec_name)).toEqual(['aac']);
    expect(audio.format?.format_name).toContain('m4a');
    expect(Number(audio.format?.duration)).toBeCloseTo(4, 0);
    expect(isFaststart(await readTopLevelBoxes(storedFile('static/audio.m4a')))).toBe(true);
    expect(work.records.map((r) => [r.target, r.name, r.width, r.height])).toEqual([
      ['r480', '480p.mp4', 852, 480],
      ['raudio', 'audio.m4a', 0, 0],
    ]);
  }, 60_000);

  it('removes a file whose report the asset refuses (no longer wanted) and ends the task', async () => {
    const work = new FakeStaticRenditionWork();
    work.plans.set('hd/gone', { action: 'make', reason: '', files: [planned('highest.mp4', 0)] });
    work.refuse.set('highest.mp4', Object.assign(new Error('Static rendition not found'), { code: GrpcStatus.NOT_FOUND }));
    expect(await new StaticRenditionHandler(work, store, media).run(context('gone'))).toEqual({
      status: 'cancelled',
      reason: 'highest.mp4 is no longer asked for',
    });
    expect(await store.stat('assets/hd/static/highest.mp4')).toBeUndefined();
  }, 60_000);

  it('makes the master of the kept source rendition (the original encode), every stream copied', async () => {
    const work = new FakeStaticRenditionWork();
    work.masterPlans.set('hd', { action: 'make', reason: '' });
    runs.length = 0;
    expect(await new MasterHandler(work, store, media).run(context('', 'master'))).toEqual({ status: 'done' });
    expect(runs.map(inputOf)).toEqual(['source/index.m3u8']);
    const file = storedFile('master/master.mp4');
    const read = probe(file);
    expect(read.streams?.map((s) => [s.codec_name, s.width, s.height])).toEqual([
      ['h264', 1280, 720],
      ['aac', undefined, undefined],
    ]);
    expect(Number(read.format?.duration)).toBeCloseTo(4, 0);
    expect(isFaststart(await readTopLevelBoxes(file))).toBe(true);
    expect(work.masterRecords).toEqual([{ asset_id: 'hd', status: 'ready', error_message: '' }]);
  }, 60_000);
});
