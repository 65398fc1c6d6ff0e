import http from 'node:http';
import { AddressInfo } from 'node:net';
import { Logger } from '@nestjs/common';
import { OutboundGuard } from '@platform/outbound';
import { freePort } from '@platform/testing';
import { RESPONSE_BODY_LIMIT, WebhookPoster } from './webhook-poster';
import { webhookUrlRefusal } from './webhook-url';

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
  const loopback = new OutboundGuard('loopback');
  const poster = new WebhookPoster(10_000, loopback);
  const impatient = new WebhookPoster(300, loopback);
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

  it('refuses a URL whose address OUTBOUND_ALLOW refuses: status 0, the reason on the attempt, nothing sent, logged once', async () => {
    const r = await receiver((_, res) => res.writeHead(200).end());
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    try {
      const strict = new WebhookPoster(10_000, new OutboundGuard('public'));
      const { durationMs, ...first } = await strict.post(`${r.url}/hooks?token=abc`, '{}', headers);
      expect(first).toEqual({
        statusCode: 0,
        headers: null,
        body: null,
        error: 'refused: 127.0.0.1 is a loopback address, which this platform does not connect to (OUTBOUND_ALLOW)',
      });
      expect(durationMs).toBeGreaterThanOrEqual(0);
      await strict.post(`${r.url}/hooks?token=abc`, '{}', headers);
      expect(r.received).toEqual([]);
      expect(warn.mock.calls.map((c) => String(c[0]))).toEqual([
        `webhooks to ${r.url} are refused: 127.0.0.1 is a loopback address, which this platform does not connect to (OUTBOUND_ALLOW)`,
      ]);
    } finally {
      warn.mockRestore();
      await r.close();
    }
  });

  it('refuses a host name that resolves to a refused address, checked after DNS', async () => {
    const guard = new OutboundGuard('private', () => Promise.resolve([{ address: '169.254.169.254', family: 4 }]));
    const result = await new WebhookPoster(10_000, guard).post('http://hooks.example.test/in', '{}', headers);
    expect(result.statusCode).toBe(0);
    expect(result.error).toBe('refused: hooks.example.test resolves to 169.254.169.254 is a cloud metadata address, which this platform does not connect to');
  });
});

describe('webhookUrlRefusal (the start-up warning)', () => {
  it('names a WEBHOOK_URL whose host is a literal refused address, by its origin only', () => {
    const strict = new OutboundGuard('public');
    expect(webhookUrlRefusal('http://10.0.0.5:9000/hook?token=secret', strict)).toBe(
      'WEBHOOK_URL (http://10.0.0.5:9000) is refused (10.0.0.5 is a private address, which this platform does not connect to (OUTBOUND_ALLOW)): every webhook will fail until it changes or OUTBOUND_ALLOW allows it',
    );
    expect(webhookUrlRefusal('http://localhost:3000/hook', strict)).toMatch(/^WEBHOOK_URL \(http:\/\/localhost:3000\) is refused \(127\.0\.0\.1 is a loopback/);
  });

  it('says nothing when it is unset, allowed, or a host name (checked at each POST)', () => {
    expect(webhookUrlRefusal(undefined, new OutboundGuard('public'))).toBeUndefined();
    expect(webhookUrlRefusal('http://127.0.0.1:3000/hook', new OutboundGuard('loopback'))).toBeUndefined();
    expect(webhookUrlRefusal('https://hooks.example.com/in', new OutboundGuard('public'))).toBeUndefined();
  });
});
