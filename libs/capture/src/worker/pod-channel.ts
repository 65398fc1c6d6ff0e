import fs from 'node:fs';
import { watchReloadGeneration } from './pod-annotations';
import { EndedReport, WorkerChannel } from './worker-channel';

/** What the KubernetesPodLauncher's Pod sets for the worker besides CAPTURE_JOB. */
export const POD_MODE_ENV = {
  /** Where the `ended` reason goes: the container's terminationMessagePath, which the launcher reads back. */
  terminationLog: 'CAPTURE_TERMINATION_LOG',
  /** The Downward API file of the Pod's annotations, read for reloads. */
  annotationsFile: 'CAPTURE_ANNOTATIONS_FILE',
} as const;

/** The kubelet keeps at most 4096 bytes of a termination message. */
const TERMINATION_MESSAGE_BYTES = 4096;

export interface PodChannelOptions {
  env?: NodeJS.ProcessEnv;
  out?: NodeJS.WritableStream;
  exit?: (code: number) => void;
  pollMs?: number;
}

/**
 * A worker in a Pod of its own (KubernetesPodLauncher), with no channel to the service: reports are JSON lines on
 * stdout (the Pod's log), a reload is a rise of the reload-generation annotation, and the last word is written to
 * the termination log, the exit code saying whether it failed (1) or not (0), which makes the Pod Failed or
 * Succeeded. A shutdown is the Pod's deletion: SIGTERM, which the worker handles for both channels.
 */
export function podChannel(options: PodChannelOptions = {}): WorkerChannel {
  const env = options.env ?? process.env;
  const out = options.out ?? process.stdout;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let reloads: { stop(): void } | undefined;
  const line = (report: object, then?: () => void) => out.write(`${JSON.stringify(report)}\n`, then);
  return {
    report: (report) => line(report),
    onCommand(listener) {
      const file = env[POD_MODE_ENV.annotationsFile];
      if (file) reloads = watchReloadGeneration(file, options.pollMs ?? 1000, () => listener({ type: 'reload' }));
    },
    // nothing to lose: the Pod runs on whether the service does or not (its deadline is the backstop)
    onLauncherGone: () => undefined,
    end(ended: EndedReport) {
      reloads?.stop();
      const file = env[POD_MODE_ENV.terminationLog];
      if (file) writeTerminationMessage(file, ended.reason);
      line(ended, () => exit(ended.failed ? 1 : 0));
    },
  };
}

function writeTerminationMessage(file: string, reason: string): void {
  const bytes = Buffer.from(reason, 'utf8');
  try {
    fs.writeFileSync(file, bytes.length > TERMINATION_MESSAGE_BYTES ? bytes.subarray(0, TERMINATION_MESSAGE_BYTES) : bytes);
  } catch (err) {
    process.stderr.write(`could not write the termination log ${file}: ${err instanceof Error ? err.message : String(err)}\n`);
  }
}
