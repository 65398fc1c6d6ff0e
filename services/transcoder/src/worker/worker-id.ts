import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

/** `<hostname>:<pid>:<random>`: the pid names the process to operators, the random part tells restarts apart. */
export function newWorkerId(): string {
  return `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
}
