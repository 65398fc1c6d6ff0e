import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

/** The accept-queue length of the TCP socket listening on this local port (Linux `ss`: Send-Q of a LISTEN socket). */
export function listenBacklog(port: number): number {
  const line =
    execFileSync('ss', ['-ltnH', `sport = :${port}`], { encoding: 'utf8' })
      .trim()
      .split('\n')[0] ?? '';
  const sendQ = Number(line.split(/\s+/)[2]);
  if (!Number.isFinite(sendQ)) throw new Error(`no listening socket on port ${port} (ss said ${JSON.stringify(line)})`);
  return sendQ;
}

/** The most the kernel grants a listen backlog (net.core.somaxconn). */
export function maxListenBacklog(): number {
  return Number(fs.readFileSync('/proc/sys/net/core/somaxconn', 'utf8'));
}
