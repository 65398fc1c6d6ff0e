import fs from 'node:fs';
import http from 'node:http';
import { AddressInfo } from 'node:net';

/** One webhook POST as the receiver got it: raw body and headers, so tests verify signatures. */
export interface ReceivedWebhook {
  received_at: number;
  headers: Record<string, string>;
  body: string;
}

export interface WebhookReceiver {
  url: string;
  close(): Promise<void>;
}

/**
 * The user's webhook endpoint. It runs in jest's main process for the whole e2e run (the
 * platform starts before any test file) and appends every POST to a JSON-lines file that
 * tests read with `receivedWebhooks()`.
 */
export async function startWebhookReceiver(logFile: string): Promise<WebhookReceiver> {
  fs.writeFileSync(logFile, '');
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry: ReceivedWebhook = {
        received_at: Date.now(),
        headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
        body: Buffer.concat(chunks).toString('utf8'),
      };
      fs.appendFileSync(logFile, `${JSON.stringify(entry)}\n`);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export function receivedWebhooks(logFile = process.env.E2E_WEBHOOK_LOG ?? ''): ReceivedWebhook[] {
  if (!logFile || !fs.existsSync(logFile)) return [];
  return fs
    .readFileSync(logFile, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as ReceivedWebhook);
}
