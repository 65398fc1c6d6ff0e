import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { InterceptingCall, Interceptor } from '@grpc/grpc-js';

/** The header (HTTP) and metadata key (gRPC) that carry a request's id. */
export const REQUEST_ID_HEADER = 'x-request-id';
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

const storage = new AsyncLocalStorage<{ requestId?: string; service?: string }>();

/** The id of the request this code runs for, if any (set by the gateway, carried through gRPC metadata). */
export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}

/** The service whose gRPC method this code runs for (one process may run them all). */
export function currentService(): string | undefined {
  return storage.getStore()?.service;
}

/** Runs `fn` (and everything it starts) as part of the request `requestId`. */
export function withRequestId<T>(requestId: string, fn: () => T): T {
  return storage.run({ ...storage.getStore(), requestId }, fn);
}

/** Runs `fn` as a call served by `service`, part of `requestId` when there is one. */
export function withCallContext<T>(context: { service: string; requestId?: string }, fn: () => T): T {
  return storage.run(context, fn);
}

/** A caller's id when it is one (printable, at most 128 characters), else undefined. */
export function validRequestId(value: unknown): string | undefined {
  return typeof value === 'string' && REQUEST_ID.test(value) ? value : undefined;
}

/** The gateway's id of an HTTP request: the caller's `X-Request-Id` when valid, else a new UUID. */
export function requestIdOf(header: unknown): string {
  return validRequestId(header) ?? randomUUID();
}

/** A gRPC client interceptor: every call made within a request carries its id in the metadata. */
export const requestIdClientInterceptor: Interceptor = (options, nextCall) =>
  new InterceptingCall(nextCall(options), {
    start(metadata, listener, next) {
      const requestId = currentRequestId();
      if (requestId && metadata.get(REQUEST_ID_HEADER).length === 0) metadata.set(REQUEST_ID_HEADER, requestId);
      next(metadata, listener);
    },
  });
