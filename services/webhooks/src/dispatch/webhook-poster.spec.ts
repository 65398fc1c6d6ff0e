import http from 'node:http';
import { AddressInfo } from 'node:net';
import { freePort } from '@platform/testing';
import { RESPONSE_BODY_LIMIT, WebhookPoster } from './webhook-poster';

interface Received {
  method?: string;
  url?: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A receiver answering each request with `reply`; `hang` leaves the request unanswered. */
async function receiver(reply: (req: http.IncomingMessage, res: http.ServerResponse) => void) {
  const received: Received[] = [];
  const open = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      open.add(res);
      res.on('close', () => open.delete(res));
      reply(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = () => {
    for (const res of open) res.destroy();
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return { url, received, close };
}

describe('WebhookPoster', () => {
  // a generous timeout where none is expected (the first fetch of a process loads undici)
  const poster = new WebhookPoster(10_000);
  const impatient = new WebhookPoster(300);
  const headers = { 'content-type': 'application/json', 'mux-signature': 't=1,v1=ab', 'user-agent': 'test-agent' };

  it('POSTs the body and headers as given and reports the status, headers and body of the reply', async () => {
    const r = await receiver((_, res) => res.writeHead(202, { 'x-receiver': 'yes' }).end('accepted'));
    try {
      const result = await poster.post(`${r.url}/hooks?x=1`, '{"a":"ü"}', headers);
      expect(r.received).toEqual([
        {
          method: 'POST',
          url: '/hooks?x=1',
          headers: expect.objectContaining({
            'content-type': 'application/json',
            'mux-signature': 't=1,v1=ab',
            'user-agent': 'test-agent',
            'content-length': '10',
          }),
          body: '{"a":"ü"}',
        },
      ]);
      expect(result).toEqual({
        statusCode: 202,
        headers: expect.objectContaining({ 'x-receiver': 'yes' }),
        body: 'accepted',
        error: null,
        durationMs: expect.any(Number),
      });
      expect(result.durationMs).toBeGreaterThanOrEqual(0);
    } finally {
      await r.close();
    }
  });

  it('keeps only the start of a long reply body', async () => {
    const r = await receiver((_, res) => res.writeHead(500).end('x'.repeat(RESPONSE_BODY_LIMIT * 3)));
    try {
      const result = await poster.post(r.url, '{}', headers);
      expect(result.statusCode).toBe(500);
      expect(result.body).toBe('x'.repeat(RESPONSE_BODY_LIMIT));
      expect(result.error).toBeNull();
    } finally {
      await r.close();
    }
  });

  it('gives up after the timeout with status 0 and says so', async () => {
    const r = await receiver(() => undefined);
    try {
      const result = await impatient.post(r.url, '{}', headers);
      expect(result).toEqual({ statusCode: 0, headers: null, body: null, error: 'timed out after 300 ms', durationMs: expect.any(Number) });
      expect(result.durationMs).toBeGreaterThanOrEqual(290);
      expect(result.durationMs).toBeLessThan(5000);
    } finally {
      await r.close();
    }
  });

  it('reports a refused connection with status 0 and the reason', async () => {
    const port = await freePort();
    const result = await poster.post(`http://127.0.0.1:${port}/`, '{}', headers);
    expect(result).toEqual({ statusCode: 0, headers: null, body: null, error: expect.stringContaining('ECONNREFUSED'), durationMs: expect.any(Number) });
  });

  it('does not follow a redirect: the 3xx is the outcome and the target is never posted to', async () => {
    const target = await receiver((_, res) => res.writeHead(200).end());
    const r = await receiver((_, res) => res.writeHead(307, { location: `${target.url}/elsewhere` }).end());
    try {
      const result = await poster.post(r.url, '{}', headers);
      expect(result.statusCode).toBe(307);
      expect(target.received).toEqual([]);
    } finally {
      await r.close();
      await target.close();
    }
  });
});
