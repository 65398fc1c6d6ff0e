import { Controller, Get, Module, Req } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { listenBacklog, maxListenBacklog } from '@platform/testing';
import type { Server } from 'node:http';
import { AddressInfo } from 'node:net';
import type { Request } from 'express';
import { drainHttpOnClose } from './http-drain';
import { LISTEN_BACKLOG, listenHttp, listenHttpAlso } from './listen-http';

@Module({})
class EmptyModule {}

@Controller()
class PortController {
  @Get('port')
  port(@Req() req: Request): { port?: number } {
    return { port: req.socket.localPort };
  }
}

@Module({ controllers: [PortController] })
class PortModule {}

describe('listenHttp', () => {
  it('listens with a long accept queue (Node’s 511 overflowed under open-loop overload and reset connections)', async () => {
    const app = await NestFactory.create(EmptyModule, { logger: false });
    try {
      await listenHttp(app, 0, '127.0.0.1');
      const { port } = (app.getHttpServer() as Server).address() as AddressInfo;
      expect(listenBacklog(port)).toBe(Math.min(LISTEN_BACKLOG, maxListenBacklog()));
      expect(listenBacklog(port)).toBeGreaterThan(511);
    } finally {
      await app.close();
    }
  });
});

describe('listenHttpAlso', () => {
  it('serves the same routes on a second port, each request knowing the port it came in on, and is drained with the app', async () => {
    const app = await NestFactory.create(PortModule, { logger: false });
    await listenHttp(app, 0, '127.0.0.1');
    const also = await listenHttpAlso(app, 0, '127.0.0.1');
    const first = ((app.getHttpServer() as Server).address() as AddressInfo).port;
    const second = (also.address() as AddressInfo).port;
    expect(second).not.toBe(first);
    expect(listenBacklog(second)).toBe(Math.min(LISTEN_BACKLOG, maxListenBacklog()));
    expect(await (await fetch(`http://127.0.0.1:${first}/port`)).json()).toEqual({ port: first });
    expect(await (await fetch(`http://127.0.0.1:${second}/port`)).json()).toEqual({ port: second });

    await drainHttpOnClose(app, 100, [also]).close();
    expect(also.listening).toBe(false);
    await expect(fetch(`http://127.0.0.1:${second}/port`)).rejects.toThrow();
  });

  it('rejects when the port is taken', async () => {
    const app = await NestFactory.create(PortModule, { logger: false });
    await listenHttp(app, 0, '127.0.0.1');
    const taken = ((app.getHttpServer() as Server).address() as AddressInfo).port;
    try {
      await expect(listenHttpAlso(app, taken, '127.0.0.1')).rejects.toThrow(/EADDRINUSE/);
    } finally {
      await app.close();
    }
  });
});
