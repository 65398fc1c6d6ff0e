import { BroadcastEntity } from './broadcast.entity';

/** Where a broadcast's compositor runs: a capture job loading the space's compositor page and pushing it to the live stream. */
export interface CompositorJobs {
  /** Starts it; `onEnded` is called once when it is gone, whatever the cause (stop, crash, timeout). */
  start(broadcast: BroadcastEntity, streamKey: string, onEnded: (reason: string, failed: boolean) => void): Promise<void>;
  /** Stops it and resolves once it is gone (its `onEnded` called). */
  stop(broadcastId: string): Promise<void>;
  isRunning(broadcastId: string): boolean;
}

export const COMPOSITOR_JOBS = Symbol('COMPOSITOR_JOBS');
