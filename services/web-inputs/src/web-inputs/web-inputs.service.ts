import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import { DomainError } from '@platform/errors';
import { UnitOfWork } from '@platform/events';
import { newId } from '@platform/ids';
import { OutboundGuard } from '@platform/outbound';
import { common, webInputs } from '@platform/proto';
import { CaptureJobs } from '../capture/capture-jobs';
import { DestinationStream, KeyedSerialQueue, LIVE_STREAM_LOOKUP, LiveStreamLookup } from '@platform/grpc';
import { WebInputEntity } from './web-input.entity';
import { urlProblems, validWebInputFields } from './web-input-fields';
import { toWebInputMessage } from './web-input.mapper';
import { WebInputRepository } from './web-input.repository';
import { emitWebInput, WEB_INPUT_EVENTS, WebInputStates } from './web-input-states';

/** Spec 4.9: list `limit` defaults to 25 (100 at most, as Mux's other lists). */
export const DEFAULT_LIMIT = 25;
export const MAX_LIMIT = 100;

/**
 * Web inputs (spec 2.9, 4.9, 3): CRUD and the browser's launch, reload and shutdown. The gateway validates
 * requests first; the rules are checked again here.
 */
@Injectable()
export class WebInputsService implements OnApplicationBootstrap {
  private readonly guard: OutboundGuard;
  /** Launch, shutdown, reload and delete of one web input run one at a time (a shutdown never slips into a launch). */
  private readonly serial = new KeyedSerialQueue();

  constructor(
    @Inject(WebInputRepository) private readonly webInputs: WebInputRepository,
    @Inject(WebInputStates) private readonly states: WebInputStates,
    @Inject(CaptureJobs) private readonly jobs: CaptureJobs,
    @Inject(LIVE_STREAM_LOOKUP) private readonly liveStreams: LiveStreamLookup,
    @Inject(UnitOfWork) private readonly unitOfWork: UnitOfWork,
    @Inject(PLATFORM_CONFIG) config: PlatformConfig,
  ) {
    this.guard = new OutboundGuard(config.outboundAllow);
  }

  /**
   * Reconciles with what a previous run of this service left: its jobs that still run are adopted (Pods outlive the
   * service; child processes do not); a web input left launching or streaming without one goes idle, and an adopted
   * job whose web input is no longer launching or streaming (idle, deleted) is stopped.
   */
  async onApplicationBootstrap(): Promise<void> {
    const adopted = await this.jobs.adopt();
    const running = await this.webInputs.findRunning();
    for (const orphan of running) {
      if (!this.jobs.isRunning(orphan.id)) await this.states.toIdle(orphan.id, 'the web-inputs service restarted while it ran', true);
    }
    const wanted = new Set(running.map((w) => w.id));
    await Promise.all(adopted.filter((id) => !wanted.has(id)).map((id) => this.jobs.stop(id)));
  }

  async create(request: webInputs.CreateWebInputRequest): Promise<webInputs.WebInput> {
    const fields = validWebInputFields(request, this.guard);
    const stream = await this.liveStreams.find(fields.liveStreamId);
    if (!stream) throw DomainError.invalid(`live_stream_id: no live stream ${fields.liveStreamId}`);
    // what would refuse the launch refuses the create, so a refused auto_launch leaves nothing behind
    if (fields.autoLaunch) await this.checkLaunchable(fields.liveStreamId, stream, fields.url);
    const now = new Date();
    const webInput: WebInputEntity = { id: newId(), ...fields, status: 'idle', launchedAt: null, createdAt: now, updatedAt: now };
    await this.unitOfWork.run(async (manager, emit) => {
      await this.webInputs.insert(manager, webInput);
      emitWebInput(emit, WEB_INPUT_EVENTS.created, webInput);
    });
    if (!webInput.autoLaunch) return toWebInputMessage(webInput);
    await this.launch(webInput.id);
    return toWebInputMessage(await this.found(webInput.id));
  }

  async get(id: string): Promise<webInputs.WebInput> {
    return toWebInputMessage(await this.found(id));
  }

  async list(request: common.PageRequest): Promise<webInputs.WebInputList> {
    const limit = request.limit > 0 ? request.limit : DEFAULT_LIMIT;
    if (limit > MAX_LIMIT) throw DomainError.invalid(`limit: must be at most ${MAX_LIMIT}`);
    const page = request.page > 0 ? request.page : 1;
    return { items: (await this.webInputs.list(limit, (page - 1) * limit)).map(toWebInputMessage) };
  }

  /** Starts the browser, loads the url and streams to the live stream: `launching`, then `streaming` once our ingest has the publish. */
  launch(id: string): Promise<void> {
    return this.serial.run(id, async () => {
      const webInput = await this.found(id);
      if (webInput.status !== 'idle') throw DomainError.precondition(`The web input is already launched; it is ${webInput.status}`);
      const stream = await this.liveStreams.find(webInput.liveStreamId);
      const { streamKey } = await this.checkLaunchable(webInput.liveStreamId, stream, webInput.url);
      const launching = await this.states.toLaunching(id);
      if (!launching) throw DomainError.precondition('The web input is already launched');
      await this.jobs.start(launching, streamKey).catch(async (err: unknown) => {
        await this.states.toIdle(id, `the capture job could not start: ${String(err)}`, true);
        throw err;
      });
    });
  }

  /** Ends streaming, then shuts the browser down; an idle web input stays as it is. */
  shutdown(id: string): Promise<void> {
    return this.serial.run(id, async () => {
      const webInput = await this.found(id);
      if (this.jobs.isRunning(id)) await this.jobs.stop(id);
      else if (webInput.status !== 'idle') await this.states.toIdle(id, 'shut down (no capture job was running)', false);
    });
  }

  /** Reloads the page in the running browser; the encoder keeps streaming, so viewers see the reload. */
  reload(id: string): Promise<void> {
    return this.serial.run(id, async () => {
      const webInput = await this.found(id);
      if (webInput.status !== 'streaming') throw DomainError.precondition(`Only a streaming web input can be reloaded; it is ${webInput.status}`);
      if (!(await this.jobs.reload(id))) throw DomainError.precondition('The web input has no running browser to reload');
    });
  }

  /** Only while idle (spec 3). */
  async updateUrl(request: webInputs.UpdateWebInputUrlRequest): Promise<webInputs.WebInput> {
    const problems = urlProblems(request.url, this.guard);
    if (problems.length > 0) throw DomainError.invalid(...problems);
    const updated = await this.unitOfWork.run(async (manager, emit) => {
      const current = await this.webInputs.findById(request.id, manager);
      if (!current) throw notFound();
      const webInput = await this.webInputs.updateUrl(manager, request.id, request.url);
      if (!webInput) throw DomainError.precondition(`The url can be changed only while the web input is idle; it is ${current.status}`);
      emitWebInput(emit, WEB_INPUT_EVENTS.updated, webInput);
      return webInput;
    });
    return toWebInputMessage(updated);
  }

  /** Stops the browser and the stream first, then deletes. */
  delete(id: string): Promise<void> {
    return this.serial.run(id, async () => {
      await this.found(id);
      if (this.jobs.isRunning(id)) await this.jobs.stop(id);
      await this.unitOfWork.run(async (manager, emit) => {
        const webInput = await this.webInputs.delete(manager, id);
        if (!webInput) throw notFound();
        emitWebInput(emit, WEB_INPUT_EVENTS.deleted, { ...webInput, status: 'idle' });
      });
    });
  }

  /** The stream exists and is not disabled, and the page's host is one the platform may reach; answers the stream. */
  private async checkLaunchable(streamId: string, stream: DestinationStream | undefined, url: string): Promise<DestinationStream> {
    if (!stream) throw DomainError.precondition(`The web input's live stream ${streamId} no longer exists`);
    if (stream.status === 'disabled') throw DomainError.precondition(`The web input's live stream ${streamId} is disabled`);
    try {
      await this.guard.resolve(new URL(url).hostname);
    } catch (err) {
      throw DomainError.precondition(`The web input's url cannot be loaded: ${err instanceof Error ? err.message : String(err)}`);
    }
    return stream;
  }

  private async found(id: string): Promise<WebInputEntity> {
    const webInput = await this.webInputs.findById(id);
    if (!webInput) throw notFound();
    return webInput;
  }
}

function notFound(): DomainError {
  return DomainError.notFound('Web input');
}
