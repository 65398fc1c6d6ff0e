import { loadConfig } from '@platform/config';
import { ErrorCode } from '@platform/errors';
import { fakeUnitOfWork, rejection } from '@platform/testing';
import { CaptureJobs } from '../capture/capture-jobs';
import { CaptureJobSpec, CaptureLauncher, CaptureReport } from '@platform/capture';
import { InMemoryWebInputs } from '../testing/in-memory-web-inputs';
import { LiveStreamEventsConsumer } from './live-stream-events.consumer';
import { DestinationStream, LiveStreamLookup } from '@platform/grpc';
import { WebInputStates } from './web-input-states';
import { WebInputsService } from './web-inputs.service';

/** Records launches; the test reports for the job as a worker would. `leftRunning`: what a previous run left (Pods). */
class FakeLauncher implements CaptureLauncher {
  readonly launched: CaptureJobSpec[] = [];
  readonly reloads: string[] = [];
  readonly stopped: string[] = [];
  leftRunning: string[] = [];
  private readonly reporters = new Map<string, (r: CaptureReport) => void>();

  async launch(spec: CaptureJobSpec, onReport: (report: CaptureReport) => void): Promise<void> {
    this.launched.push(spec);
    this.reporters.set(spec.jobId, onReport);
  }
  async reload(jobId: string): Promise<boolean> {
    if (!this.reporters.has(jobId)) return false;
    this.reloads.push(jobId);
    return true;
  }
  async adopt(onReport: (jobId: string, report: CaptureReport) => void): Promise<string[]> {
    for (const id of this.leftRunning) this.reporters.set(id, (r) => onReport(id, r));
    return this.leftRunning;
  }
  async close(): Promise<void> {
    for (const id of this.running()) this.end(id, 'shut down', false);
  }
  stop(jobId: string): Promise<void> {
    this.stopped.push(jobId);
    this.end(jobId, 'shut down', false);
    return Promise.resolve();
  }
  running(): string[] {
    return [...this.reporters.keys()];
  }
  end(jobId: string, reason: string, failed: boolean): void {
    const report = this.reporters.get(jobId);
    this.reporters.delete(jobId);
    report?.({ type: 'ended', reason, failed });
  }
}

describe('WebInputsService (spec 2.9, 3, 4.9)', () => {
  const config = { ...loadConfig({ OUTBOUND_ALLOW: 'loopback', RTMP_PORT: '1935', CHROMIUM_PATH: '/usr/bin/chromium' }) };
  let repo: InMemoryWebInputs;
  let launcher: FakeLauncher;
  let streams: Map<string, DestinationStream>;
  let uow: ReturnType<typeof fakeUnitOfWork>;
  let service: WebInputsService;
  let consumer: LiveStreamEventsConsumer;

  beforeEach(() => {
    repo = new InMemoryWebInputs();
    launcher = new FakeLauncher();
    streams = new Map([
      ['ls1', { status: 'idle', streamKey: 'key-1' }],
      ['off', { status: 'disabled', streamKey: 'key-2' }],
    ]);
    uow = fakeUnitOfWork();
    const states = new WebInputStates(repo as never, uow.unitOfWork);
    const jobs = new CaptureJobs(launcher, states, config);
    const lookup = { find: (id: string) => Promise.resolve(streams.get(id)) } as LiveStreamLookup;
    service = new WebInputsService(repo as never, states, jobs, lookup, uow.unitOfWork, config);
    consumer = new LiveStreamEventsConsumer({} as never, repo as never, states);
  });
  const eventTypes = () => uow.events.map((e) => e.type);
  const settle = () => new Promise((r) => setTimeout(r, 0));

  it('creates with the defaults of 2.9 and a created event carrying passthrough', async () => {
    const created = await service.create({ url: 'http://127.0.0.1:9/page', live_stream_id: 'ls1', passthrough: 'p' });
    expect(created).toEqual({
      id: expect.any(String),
      status: 'idle',
      created_at: expect.any(Number),
      url: 'http://127.0.0.1:9/page',
      auto_launch: false,
      live_stream_id: 'ls1',
      passthrough: 'p',
      resolution: '1920x1080',
      timeout: 3600,
    });
    expect(uow.events.map((e) => [e.type, e.data.passthrough, e.data.status])).toEqual([['video.web_input.created', 'p', 'idle']]);
    expect(launcher.launched).toEqual([]);
  });

  it('refuses an unknown live stream, a bad resolution or timeout, a url the platform may not reach: nothing stored', async () => {
    expect(await rejection(service.create({ url: 'http://127.0.0.1:9/', live_stream_id: 'nope' }))).toMatchObject({ code: ErrorCode.INVALID_PARAMETERS });
    const bad = await rejection(service.create({ url: 'http://169.254.169.254/latest', live_stream_id: 'ls1', resolution: '640x480', timeout: 0 }));
    expect(bad).toMatchObject({ code: ErrorCode.INVALID_PARAMETERS });
    expect((bad as { messages: string[] }).messages).toEqual([
      expect.stringMatching(/^url: 169\.254\.169\.254 is/),
      expect.stringMatching(/^resolution: must be one of/),
      'timeout: must be an integer from 1 to 43200',
    ]);
    expect(repo.rows.size).toBe(0);
  });

  it('auto_launch launches at creation: launching, a job with the viewport, the fps, the stream key and the timeout', async () => {
    const created = await service.create({ url: 'http://127.0.0.1:9/page', live_stream_id: 'ls1', auto_launch: true, resolution: '1280x720', timeout: 30 });
    expect(created.status).toBe('launching');
    expect(launcher.launched).toEqual([
      {
        jobId: created.id,
        url: 'http://127.0.0.1:9/page',
        width: 1280,
        height: 720,
        fps: 30,
        rtmpUrl: 'rtmp://127.0.0.1:1935/app/key-1',
        timeoutSeconds: 30,
        ffmpegPath: expect.any(String),
        chromiumPath: '/usr/bin/chromium',
        outboundAllow: 'loopback',
      },
    ]);
    expect(eventTypes()).toEqual(['video.web_input.created', 'video.web_input.launching']);
  });

  it('is streaming once the ingest reports the publish after the launch; an older connection changes nothing', async () => {
    const { id } = await service.create({ url: 'http://127.0.0.1:9/page', live_stream_id: 'ls1' });
    await service.launch(id);
    const connected = (at: Date) => ({
      id: 'e1',
      type: 'video.live_stream.connected',
      occurred_at: at.toISOString(),
      object: { type: 'live', id: 'ls1' },
      data: {},
    });
    await consumer.handle(connected(new Date(repo.now.getTime() - 60_000)) as never);
    expect((await service.get(id)).status).toBe('launching');
    await consumer.handle(connected(repo.now) as never);
    expect((await service.get(id)).status).toBe('streaming');
    await consumer.handle(connected(repo.now) as never); // redelivered
    expect(eventTypes()).toEqual(['video.web_input.created', 'video.web_input.launching', 'video.web_input.streaming']);
  });

  it('goes idle when the job ends, whatever the cause, with one idle event', async () => {
    const { id } = await service.create({ url: 'http://127.0.0.1:9/page', live_stream_id: 'ls1' });
    await service.launch(id);
    launcher.end(id, 'the browser closed', true);
    await settle();
    expect((await service.get(id)).status).toBe('idle');
    expect(eventTypes()).toEqual(['video.web_input.created', 'video.web_input.launching', 'video.web_input.idle']);
  });

  it('keeps the preconditions: one launch at a time, no launch into a disabled stream, reload only while launched, url only while idle', async () => {
    const { id } = await service.create({ url: 'http://127.0.0.1:9/page', live_stream_id: 'ls1' });
    expect(await rejection(service.reload(id))).toMatchObject({ code: ErrorCode.PRECONDITION_FAILED });
    await service.launch(id);
    expect(await rejection(service.launch(id))).toMatchObject({
      code: ErrorCode.PRECONDITION_FAILED,
      messages: ['The web input is already launched; it is launching'],
    });
    expect(await rejection(service.updateUrl({ id, url: 'http://127.0.0.1:9/other' }))).toMatchObject({
      code: ErrorCode.PRECONDITION_FAILED,
      messages: ['The url can be changed only while the web input is idle; it is launching'],
    });
    expect(await rejection(service.reload(id))).toMatchObject({
      code: ErrorCode.PRECONDITION_FAILED,
      messages: ['Only a streaming web input can be reloaded; it is launching'],
    });
    repo.rows.get(id)!.status = 'streaming';
    await service.reload(id);
    expect(launcher.reloads).toEqual([id]);
    await service.shutdown(id);
    expect((await service.get(id)).status).toBe('idle');
    await service.shutdown(id); // idle already: nothing to do
    expect((await service.updateUrl({ id, url: 'http://127.0.0.1:9/other' })).url).toBe('http://127.0.0.1:9/other');

    const off = await service.create({ url: 'http://127.0.0.1:9/page', live_stream_id: 'off' });
    expect(await rejection(service.launch(off.id))).toMatchObject({
      code: ErrorCode.PRECONDITION_FAILED,
      messages: ["The web input's live stream off is disabled"],
    });
    expect(launcher.launched).toHaveLength(1);
  });

  it('refuses an auto_launch the launch would refuse, storing nothing', async () => {
    const refused = await rejection(service.create({ url: 'http://127.0.0.1:9/page', live_stream_id: 'off', auto_launch: true }));
    expect(refused).toMatchObject({ code: ErrorCode.PRECONDITION_FAILED, messages: ["The web input's live stream off is disabled"] });
    expect(repo.rows.size).toBe(0);
    expect(uow.events).toEqual([]);
  });

  it('runs a shutdown asked during a launch after it: the job started is the job stopped', async () => {
    const { id } = await service.create({ url: 'http://127.0.0.1:9/page', live_stream_id: 'ls1' });
    const launch = service.launch(id);
    const shutdown = service.shutdown(id);
    await Promise.all([launch, shutdown]);
    expect(launcher.launched).toHaveLength(1);
    expect(launcher.running()).toEqual([]);
    expect((await service.get(id)).status).toBe('idle');
  });

  it('deletes a running web input after stopping it: idle, then deleted', async () => {
    const { id } = await service.create({ url: 'http://127.0.0.1:9/page', live_stream_id: 'ls1' });
    await service.launch(id);
    await service.delete(id);
    expect(repo.rows.size).toBe(0);
    expect(launcher.running()).toEqual([]);
    expect(eventTypes().slice(-2)).toEqual(['video.web_input.idle', 'video.web_input.deleted']);
    expect(await rejection(service.get(id))).toMatchObject({ code: ErrorCode.NOT_FOUND, messages: ['Web input not found'] });
  });

  it('at start, adopts the jobs a previous run left: their web inputs keep streaming, jobs no web input wants are stopped', async () => {
    const kept = await service.create({ url: 'http://127.0.0.1:9/page', live_stream_id: 'ls1' });
    const orphan = await service.create({ url: 'http://127.0.0.1:9/page', live_stream_id: 'ls1' });
    const idle = await service.create({ url: 'http://127.0.0.1:9/page', live_stream_id: 'ls1' });
    repo.rows.get(kept.id)!.status = 'streaming';
    repo.rows.get(orphan.id)!.status = 'launching';
    launcher.leftRunning = [kept.id, idle.id, 'deleted-web-input'];
    await service.onApplicationBootstrap();
    expect([(await service.get(kept.id)).status, (await service.get(orphan.id)).status]).toEqual(['streaming', 'idle']);
    expect(launcher.stopped.sort()).toEqual([idle.id, 'deleted-web-input'].sort());
    expect(launcher.running()).toEqual([kept.id]);
    // the adopted job reports to the service as one it launched: its end makes the web input idle
    launcher.end(kept.id, 'the timeout of 3600 s passed', false);
    await settle();
    expect((await service.get(kept.id)).status).toBe('idle');
  });

  it('at start, makes idle what a previous run left launching or streaming (no browser survives it)', async () => {
    const { id } = await service.create({ url: 'http://127.0.0.1:9/page', live_stream_id: 'ls1' });
    repo.rows.get(id)!.status = 'streaming';
    await service.onApplicationBootstrap();
    expect((await service.get(id)).status).toBe('idle');
  });
});
