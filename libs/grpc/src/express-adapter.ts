import * as http from 'node:http';
import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Application } from 'express';

/**
 * Express 5 gives every request and response its app's prototypes with Object.setPrototypeOf.
 * On objects born as plain http.IncomingMessage and ServerResponse, V8 then makes a new hidden
 * class per request, held weakly by the old one's transitions until a full GC, so the scavenger
 * keeps and promotes them: measured under GET at 500/s, the gateway thread promoted about 13 MB/s
 * and scavenged for ~7 ms four times a second. Born with the app's prototypes, Express's
 * setPrototypeOf finds the prototype already set and does nothing.
 */
export class PrototypedExpressAdapter extends ExpressAdapter {
  override initHttpServer(options: NestApplicationOptions): void {
    if (options.httpsOptions || options.forceCloseConnections) return super.initHttpServer(options);
    const app = this.getInstance<Application>();
    this.httpServer = http.createServer(bornWithAppPrototypes(app), app);
  }
}

/** http.Server options whose requests and responses are created with `app.request` and `app.response` as prototypes. */
export function bornWithAppPrototypes(app: Application): http.ServerOptions {
  // Express sets both in createApplication; its typings leave them out
  const { request, response } = app as Application & { request: object; response: object };
  return {
    IncomingMessage: constructorWithPrototype(http.IncomingMessage, request),
    ServerResponse: constructorWithPrototype<typeof http.ServerResponse>(http.ServerResponse, response),
  };
}

/**
 * A constructor that runs `base` on the new object and gives it `prototype`. It calls `base` as a
 * function (Node's IncomingMessage and ServerResponse are ES5 constructors): built with
 * Reflect.construct and a new.target instead, V8 kept about 1.2 MB per scavenge at 500/s (measured).
 */
export function constructorWithPrototype<T extends abstract new (...args: never[]) => object>(base: T, prototype: object): T {
  if (/^class\b/.test(Function.prototype.toString.call(base))) throw new Error(`${base.name} is a class; it cannot be called on a new object`);
  const callBase = base as unknown as (this: object, ...args: unknown[]) => void;
  function Born(this: object, ...args: unknown[]): void {
    callBase.apply(this, args);
  }
  Born.prototype = prototype;
  return Born as unknown as T;
}
