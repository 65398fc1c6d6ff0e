import { AddressInfo } from 'node:net';
import { createServer, Server } from 'node:http';
import { CountsTokenCheck, ViewerCountsTokens } from './viewer-counts-token';
import { ViewerCountsQuery } from './viewer-counts.query';
import { viewerCountsRoute } from './viewer-counts.route';

describe('GET /counts', () => {
  let server: Server;
  let base: string;
  let check: jest.Mock<Promise<CountsTokenCheck>, [string | null | undefined]>;
  let count: jest.Mock;
  const NOW = Date.parse('2026-11-27T12:00:00Z');

  beforeAll(async () => {
    check = jest.fn();
    count = jest.fn();
    const route = viewerCountsRoute({ check } as unknown as ViewerCountsTokens, { count } as unknown as ViewerCountsQuery, () => NOW);
    server = createServer((req, res) => {
      void route.handle(req, res).then((done) => done || res.writeHead(418).end());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise((resolve) => server.close(resolve)));
  beforeEach(() => jest.resetAllMocks());

  it("answers stats.mux.com's shape with CORS *, one query per burst", async () => {
    check.mockResolvedValue({ ok: true, target: { column: 'asset_id', id: 'a1' } });
    count.mockResolvedValue({ views: 3, viewers: 2 });
    const replies = await Promise.all([1, 2, 3].map(() => fetch(`${base}/counts?token=jwt`)));
    for (const res of replies) {
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(await res.json()).toEqual({ data: [{ views: 3, viewers: 2, updated_at: '2026-11-27T12:00:00.000Z' }] });
    }
    expect(count).toHaveBeenCalledTimes(1);
    expect(count).toHaveBeenCalledWith({ column: 'asset_id', id: 'a1' }, NOW);
    expect(check).toHaveBeenCalledWith('jwt');
  });

  it('401 and 403 with the reason, 503 when the keys cannot be asked', async () => {
    check.mockResolvedValueOnce({ ok: false, status: 401, reason: 'A token (?token=) is required' });
    const missing = await fetch(`${base}/counts`);
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({ error: { type: 'unauthorized', messages: ['A token (?token=) is required'] } });
    check.mockResolvedValueOnce({ ok: false, status: 403, reason: 'Token is expired' });
    expect((await fetch(`${base}/counts?token=old`)).status).toBe(403);
    check.mockRejectedValueOnce(new Error('unavailable'));
    expect((await fetch(`${base}/counts?token=jwt`)).status).toBe(503);
    expect(count).not.toHaveBeenCalled();
  });

  it('preflight, other methods, other paths', async () => {
    const preflight = await fetch(`${base}/counts?token=jwt`, { method: 'OPTIONS' });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, OPTIONS');
    expect((await fetch(`${base}/counts`, { method: 'POST', body: '{}' })).status).toBe(405);
    expect((await fetch(`${base}/countsx`)).status).toBe(418);
  });
});
