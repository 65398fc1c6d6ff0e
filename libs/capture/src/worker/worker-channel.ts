import { CaptureCommand, CaptureReport } from '../capture-job';

export type EndedReport = Extract<CaptureReport, { type: 'ended' }>;

/** How a capture worker talks to whoever launched it: the IPC channel of a forked child, or a Pod's own files. */
export interface WorkerChannel {
  report(report: CaptureReport): void;
  /** Commands from the launcher (`reload`, `shutdown`). */
  onCommand(listener: (command: CaptureCommand) => void): void;
  /** The launcher went away, so nothing would hear of the job again (a forked worker's parent); a Pod never hears it. */
  onLauncherGone(listener: (why: string) => void): void;
  /** Hands over the job's last word, then ends the process. */
  end(ended: EndedReport): void;
}

/** A worker forked by the LocalProcessLauncher: reports and commands go over the IPC channel. */
export function ipcChannel(): WorkerChannel {
  return {
    report: (report) => process.send?.(report),
    onCommand: (listener) => process.on('message', (command: CaptureCommand) => listener(command)),
    onLauncherGone: (listener) => process.on('disconnect', () => listener('the service that launched it went away')),
    end(ended) {
      if (!process.send || !process.connected) process.exit(0);
      setTimeout(() => process.exit(0), 2000).unref();
      process.send(ended, () => process.exit(0));
    },
  };
}
