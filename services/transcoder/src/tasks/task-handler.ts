import { EventType, RegisteredEvent } from '@platform/events';
import { TaskEntity } from './task.entity';

/** What the task worker gives a handler for one attempt of one task. */
export interface TaskContext {
  readonly taskId: string;
  readonly assetId: string;
  readonly kind: string;
  readonly target: string;
  readonly attempt: number;
  /** Aborted when the lease is lost, the task is cancelled or the worker shuts down. */
  readonly signal: AbortSignal;
  /** This attempt's scratch folder (exists, empty); removed afterwards. */
  readonly workDir: string;
  /** Renews the lease now and throws when this claim no longer holds the task: call it before anything others can see. */
  checkpoint(): Promise<void>;
  /** Pid of each ffmpeg/ffprobe started, so one left behind by a crash can be ended later. */
  onChild(pid: number): void;
}

/** How a run ended when it did not throw. A throw means "try again later" (unless the signal was aborted). */
export type TaskOutcome =
  | { status: 'done' }
  /** Not possible yet (e.g. the asset is still being recorded): back to the queue after `delaySeconds`, the attempt not counted. */
  | { status: 'later'; delaySeconds: number; reason: string }
  /** Nothing left to do: the asset or what the task was for is gone. */
  | { status: 'cancelled'; reason: string }
  /** Failed for good; the handler has already told the asset (a track `errored`, …). */
  | { status: 'errored'; error: string };

/** The tasks an event queues or cancels: targets within the event's asset. */
export interface TaskTrigger<T extends EventType = EventType> {
  type: T;
  /** Asset the event is about (a track event's `asset_id`, an asset event's object id). */
  assetId(event: RegisteredEvent<T>): string;
  queue?(event: RegisteredEvent<T>): string[];
  /** Targets whose open tasks stop; `'all'` for every task of this kind of the asset. */
  cancel?(event: RegisteredEvent<T>): string[] | 'all';
}

/** Declares a trigger with its event typed. */
export function trigger<T extends EventType>(t: TaskTrigger<T>): TaskTrigger {
  return t as unknown as TaskTrigger;
}

/**
 * One kind of asset task (a text track, an audio track, generated subtitles, MP4 renditions, a master
 * file). The task worker claims, leases and retries; the handler does the work, reports it to the
 * assets service (which owns every state and event), and says how it ended.
 */
export interface TaskHandler {
  /** Stored in `tasks.kind`: names this handler. */
  readonly kind: string;
  /** The task needs the asset's stored renditions: it waits until the asset's job has no open phase. */
  readonly afterLadder: boolean;
  /** The events that queue or cancel tasks of this kind. */
  readonly triggers: readonly TaskTrigger[];
  run(ctx: TaskContext): Promise<TaskOutcome>;
  /**
   * The task failed for good (out of attempts, or the assets service refused a call): tell the asset
   * what it means for it (a track `errored`, MP4s `errored`, …). A throw keeps the task for later.
   */
  giveUp(task: TaskEntity, message: string): Promise<void>;
}

/** Nest token of the list of handlers (`TasksModule.forHandlers`). */
export const TASK_HANDLERS = Symbol('TASK_HANDLERS');
