import http from 'node:http';
import { AddressInfo } from 'node:net';
import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { drainHttpOnClose, drainHttpServer } from './http-drain';

@Controller()
class StallingController {
  @Get('stall')
  stall(): Promise<void> {
    return new Promise(() => undefined); // an upload still streaming
  }
}

@Module({ controllers: [StallingController] })
class StallingModule {}

describe('drainHttpServer', () => {
  it('stops taking requests, lets one in flight finish, and closes what is still running after the grace time', async () => {
    const server = http.createServer((req, res) => {
      if (req.url === '/quick') setTimeout(() => res.end('done'), 100);
      // '/stalled' never answers: an upload still streaming
    });
    server.keepAliveTimeout = 65_000;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const url = (p: string) => `http://127.0.0.1:${port}${p}`;
    const idle = new http.Agent({ keepAlive: true });
    await new Promise<void>((resolve) => http.get(url('/quick'), { agent: idle }, (res) => res.resume().on('end', resolve)));

    const quick = fetch(url('/quick')).then((r) => r.text());
    const stalled = fetch(url('/stalled')).then(
      () => 'answered',
      () => 'cut',
    );
    await new Promise((r) => setTimeout(r, 50));
    const started = Date.now();
    await drainHttpServer(server, 300);
    const took = Date.now() - started;

    expect(await quick).toBe('done');
    expect(await stalled).toBe('cut');
    expect(took).toBeGreaterThanOrEqual(250);
    expect(took).toBeLessThan(5000); // not the 65 s of an idle keep-alive connection
    await expect(fetch(url('/quick'))).rejects.toThrow();
    idle.destroy();
  });
});

describe('drainHttpOnClose', () => {
  it('closes a Nest app with a request in flight within the grace time (its app object ignores method assignments)', async () => {
    const app = await NestFactory.create(StallingModule, { logger: false });
    await app.listen(0, '127.0.0.1');
    const { port } = (app.getHttpServer() as http.Server).address() as AddressInfo;
    const stalled = fetch(`http://127.0.0.1:${port}/stall`).then(
      () => 'answered',
      () => 'cut',
    );
    await new Promise((r) => setTimeout(r, 100));
    const started = Date.now();
    await drainHttpOnClose(app, 300).close();
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await stalled).toBe('cut');
  });
});
