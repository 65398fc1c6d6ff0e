import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import Mux from '@mux/mux-node';
import { eventually } from './encoder';
import { ReceivedWebhook } from './webhook-receiver';

type LiveStream = Awaited<ReturnType<Mux['video']['liveStreams']['retrieve']>>;
type Asset = Awaited<ReturnType<Mux['video']['assets']['retrieve']>>;

interface WebhookBody {
  id: string;
  type: string;
  object: { id: string };
}

/** How many distinct events of each type the receiver got for an object (a redelivery of one event counts once). */
export function eventCounts(webhooks: ReceivedWebhook[], objectId: string): Record<string, number> {
  const ids = new Map<string, Set<string>>();
  for (const w of webhooks) {
    const body = JSON.parse(w.body) as WebhookBody;
    if (body.object.id !== objectId) continue;
    if (!ids.has(body.type)) ids.set(body.type, new Set());
    ids.get(body.type)!.add(body.id);
  }
  return Object.fromEntries([...ids].map(([type, set]) => [type, set.size]));
}

/** The types of the webhooks of an object, in the order received (distinct events). */
export function eventTypes(webhooks: ReceivedWebhook[], objectId: string): string[] {
  const seen = new Set<string>();
  const types: string[] = [];
  for (const w of webhooks) {
    const body = JSON.parse(w.body) as WebhookBody;
    if (body.object.id !== objectId || seen.has(body.id)) continue;
    seen.add(body.id);
    types.push(body.type);
  }
  return types;
}

export async function streamWhen(mux: Mux, id: string, until: (s: LiveStream) => boolean, timeoutMs = 90_000): Promise<LiveStream> {
  return eventually(() => mux.video.liveStreams.retrieve(id), until, timeoutMs);
}

export async function assetWhen(mux: Mux, id: string, until: (a: Asset) => boolean, timeoutMs = 90_000): Promise<Asset> {
  return eventually(() => mux.video.assets.retrieve(id), until, timeoutMs);
}

/** Waits until the receiver has the webhook types for the object (or the time runs out), then returns the counts. */
export async function webhooksOnce(read: () => ReceivedWebhook[], objectId: string, types: string[], timeoutMs = 30_000): Promise<Record<string, number>> {
  return eventually(
    () => Promise.resolve(eventCounts(read(), objectId)),
    (counts) => types.every((t) => (counts[t] ?? 0) >= 1),
    timeoutMs,
  );
}

/** Command lines of the running processes that contain `needle`, except `exceptPids`. */
export function processesWith(needle: string, exceptPids: number[] = []): string[] {
  return execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.includes(needle) && !exceptPids.includes(Number(l.split(/\s+/)[0])) && !l.includes('ps -eo'));
}

/** Waits until the platform's health check answers 200 again (a restarted service is back). */
export async function healthyAgain(baseUrl: string, timeoutMs = 90_000): Promise<void> {
  const status = await eventually(
    () =>
      fetch(`${baseUrl}/healthz`).then(
        (r) => r.status,
        () => 0,
      ),
    (s) => s === 200,
    timeoutMs,
  );
  expect(status).toBe(200);
}

/** Pids of every process under `rootPid` now (its children, theirs, …). */
export function descendantPids(rootPid: number): number[] {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid='], { encoding: 'utf8' })
    .split('\n')
    .map((l) => l.trim().split(/\s+/).map(Number))
    .filter(([pid]) => pid > 0);
  const found = new Set([rootPid]);
  let size = 0;
  while (found.size !== size) {
    size = found.size;
    for (const [pid, ppid] of rows) if (found.has(ppid)) found.add(pid);
  }
  found.delete(rootPid);
  return [...found];
}

/** Those of `pids` that still run (a zombie waiting to be reaped does not). */
export function stillRunning(pids: number[]): string[] {
  return pids.flatMap((pid) => {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2)[0] === 'Z') return [];
      return [fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim()];
    } catch {
      return [];
    }
  });
}
