import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { listenBacklog, maxListenBacklog } from '@platform/testing';
import type { Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { LISTEN_BACKLOG, listenHttp } from './listen-http';

@Module({})
class EmptyModule {}

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
