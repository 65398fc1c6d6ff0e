import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { EVENT_BUS, EventBus, EventType, ProcessedEvents, RegisteredEvent, subscribeEvents } from '@platform/events';
import { newId } from '@platform/ids';
import { EntityManager } from 'typeorm';
import { TaskEntity } from './task.entity';
import { TASK_HANDLERS, TaskHandler, TaskTrigger } from './task-handler';
import { TaskRepository } from './task.repository';
import { TaskWorker } from './task-worker';

export const TASKS_CONSUMER_GROUP = 'transcoder-tasks';
/** A deleted asset's tasks stop, whatever their kind. */
const ASSET_DELETED = 'video.asset.deleted';
export const TASKS_PROCESSED_EVENTS = Symbol('TASKS_PROCESSED_EVENTS');

/**
 * Consumer group `transcoder-tasks`: the events the handlers' triggers name queue or cancel tasks, and
 * `video.asset.deleted` cancels every task of the asset. Each event is handled once: its tasks and its
 * id in `transcoder.processed_events` commit together. The worker of this process is told afterwards
 * (a new task starts at once, a cancelled one running here stops).
 */
@Injectable()
export class TaskTriggersConsumer implements OnModuleInit {
  private readonly byType = new Map<string, Array<{ handler: TaskHandler; trigger: TaskTrigger }>>();

  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @Inject(TASK_HANDLERS) handlers: TaskHandler[],
    @Inject(TaskRepository) private readonly tasks: Pick<TaskRepository, 'enqueue' | 'cancel'>,
    @Inject(TASKS_PROCESSED_EVENTS) private readonly processed: Pick<ProcessedEvents, 'once'>,
    @Inject(TaskWorker) private readonly worker: Pick<TaskWorker, 'nudge' | 'stop'>,
  ) {
    for (const handler of handlers) {
      for (const trigger of handler.triggers) this.byType.set(trigger.type, [...(this.byType.get(trigger.type) ?? []), { handler, trigger }]);
    }
  }

  /** The event types this group reads. */
  get types(): EventType[] {
    return [...new Set<EventType>([ASSET_DELETED, ...([...this.byType.keys()] as EventType[])])];
  }

  async onModuleInit(): Promise<void> {
    await subscribeEvents(this.bus, { group: TASKS_CONSUMER_GROUP, types: this.types, handle: (event) => this.handle(event) });
  }

  async handle(event: RegisteredEvent): Promise<void> {
    let queued = false;
    const cancelled: TaskEntity[] = [];
    await this.processed.once(event.id, async (manager) => {
      if (event.type === ASSET_DELETED) cancelled.push(...(await this.tasks.cancel({ assetId: event.object.id }, manager)));
      for (const { handler, trigger } of this.byType.get(event.type) ?? []) {
        const changes = await this.apply(handler, trigger, event, manager);
        queued ||= changes.queued;
        cancelled.push(...changes.cancelled);
      }
    });
    if (cancelled.length > 0) this.worker.stop(cancelled);
    if (queued) this.worker.nudge();
  }

  private async apply(handler: TaskHandler, trigger: TaskTrigger, event: RegisteredEvent, manager: EntityManager) {
    const assetId = trigger.assetId(event);
    const cancelled: TaskEntity[] = [];
    const cancel = trigger.cancel?.(event) ?? [];
    if (cancel === 'all') cancelled.push(...(await this.tasks.cancel({ assetId, kind: handler.kind }, manager)));
    else for (const target of cancel) cancelled.push(...(await this.tasks.cancel({ assetId, kind: handler.kind, target }, manager)));
    let queued = false;
    for (const target of trigger.queue?.(event) ?? []) {
      queued = (await this.tasks.enqueue(newId(), { assetId, kind: handler.kind, target }, handler.afterLadder, manager)) || queued;
    }
    return { queued, cancelled };
  }
}
