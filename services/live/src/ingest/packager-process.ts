import { ChildProcess } from 'node:child_process';

/** How long a stopping ffmpeg gets to write its last segment before it is killed. */
const FINISH_MS = 5000;

/**
 * Stops a packager's ffmpeg so it still writes what it holds. One SIGINT only stops ffmpeg between
 * packets, and pulling from an RTMP server whose publisher has left it waits in a read until
 * -rw_timeout; a second SIGINT interrupts that read, and ffmpeg still writes its last segment (a
 * third would make it exit hard). SIGKILL after FINISH_MS. Resolves once it has exited.
 */
export async function stopPackagerProcess(child: ChildProcess | undefined, exited: Promise<void> | undefined): Promise<void> {
  const running = () => child !== undefined && child.exitCode === null && child.signalCode === null;
  if (running()) {
    child!.kill('SIGINT');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 200))]);
    if (running()) child!.kill('SIGINT');
    const kill = setTimeout(() => running() && child!.kill('SIGKILL'), FINISH_MS);
    await exited;
    clearTimeout(kill);
  }
  await exited;
}
