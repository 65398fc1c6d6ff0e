import { ChildProcess, spawn } from 'node:child_process';

export interface VirtualDisplay {
  /** e.g. `:100` */
  display: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * An Xvfb server of its own for one job, `width`×`height`×24, no TCP. Xvfb picks a free display number and
 * writes it to fd 3 once it accepts clients (`-displayfd`), so jobs never race for a number.
 */
export function startVirtualDisplay(width: number, height: number, timeoutMs = 10_000): Promise<VirtualDisplay> {
  const xvfb = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', `${width}x${height}x24`, '-nolisten', 'tcp', '-ac', '-nocursor'], {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  xvfb.stderr?.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-2000)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`Xvfb did not start within ${timeoutMs} ms: ${stderr.trim()}`)), timeoutMs);
    const fail = (err: Error) => {
      clearTimeout(timer);
      xvfb.kill('SIGKILL');
      reject(err);
    };
    let out = '';
    (xvfb.stdio[3] as NodeJS.ReadableStream).on('data', (c: Buffer) => {
      out += c.toString();
      const match = /^(\d+)\n/.exec(out);
      if (!match) return;
      clearTimeout(timer);
      resolve({ display: `:${match[1]}`, process: xvfb, stop: () => stopProcess(xvfb, 'SIGTERM', 3000) });
    });
    xvfb.once('error', (err) => fail(new Error(`Xvfb could not start (apt package xvfb): ${err.message}`)));
    xvfb.once('exit', (code) => fail(new Error(`Xvfb exited (${code}): ${stderr.trim()}`)));
  });
}

/** Sends `signal`, waits up to `graceMs` for the exit, then SIGKILL. */
export function stopProcess(child: ChildProcess, signal: NodeJS.Signals, graceMs: number): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill(signal);
  });
}
