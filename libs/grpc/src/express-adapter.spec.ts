import { Controller, Get, Module, Req } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import express, { type Application, type Request } from 'express';
import * as http from 'node:http';
import { Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { bornWithAppPrototypes, constructorWithPrototype, PrototypedExpressAdapter } from './express-adapter';

describe('bornWithAppPrototypes', () => {
  it('creates requests and responses that are full http objects with the app’s prototypes', () => {
    const app: Application = express();
    const options = bornWithAppPrototypes(app);
    const req = new options.IncomingMessage!(new Socket());
    const res = new options.ServerResponse!(req);
    const { request, response } = app as Application & { request: object; response: object };
    expect(Object.getPrototypeOf(req)).toBe(request);
    expect(Object.getPrototypeOf(res)).toBe(response);
    expect(req).toBeInstanceOf(http.IncomingMessage);
    expect(res).toBeInstanceOf(http.ServerResponse);
    // built by Node's constructors, not merely re-prototyped
    expect(req.headers).toEqual({});
    expect(res.statusCode).toBe(200);
  });
});

describe('constructorWithPrototype', () => {
  it('runs an ES5 constructor on an object that already has the given prototype', () => {
    function Point(this: { x: number }, x: number) {
      this.x = x;
    }
    const prototype = {
      describe(this: { x: number }) {
        return `x=${this.x}`;
      },
    };
    const Born = constructorWithPrototype(Point as unknown as new (x: number) => { x: number }, prototype);
    const point = new Born(3) as { x: number; describe(): string };
    expect(Object.getPrototypeOf(point)).toBe(prototype);
    expect(point.describe()).toBe('x=3');
  });

  it('refuses a class, which cannot be called on an existing object', () => {
    class Thing {}
    expect(() => constructorWithPrototype(Thing, {})).toThrow('Thing is a class');
  });
});

@Controller()
class EchoController {
  @Get('echo/:word')
  echo(@Req() req: Request): unknown {
    return { word: req.params.word, ip: typeof req.ip, protocol: req.protocol, query: req.query };
  }
}

@Module({ controllers: [EchoController] })
class EchoModule {}

describe('PrototypedExpressAdapter', () => {
  it('serves a Nest app whose requests are born with the Express prototypes', async () => {
    const adapter = new PrototypedExpressAdapter();
    const app = await NestFactory.create(EchoModule, adapter, { logger: false });
    const born: unknown[] = [];
    (app.getHttpServer() as http.Server).prependListener('request', (req: http.IncomingMessage) => born.push(Object.getPrototypeOf(req)));
    try {
      await app.listen(0, '127.0.0.1');
      const { port } = (app.getHttpServer() as http.Server).address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/echo/hello?x=1`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ word: 'hello', ip: 'string', protocol: 'http', query: { x: '1' } });
      expect(born).toEqual([(adapter.getInstance<Application>() as Application & { request: object }).request]);
    } finally {
      await app.close();
    }
  });
});
