import { AsyncResource } from 'node:async_hooks';
import { deprecate } from 'node:util';

const kResource = Symbol('asyncResource');
const DEP0172 = 'The asyncResource property on bound functions is deprecated';

/** One getter and setter for every bound function, so they all share one hidden class. */
const asyncResourceProperty: PropertyDescriptor = {
  configurable: true,
  enumerable: true,
  get: deprecate(
    function (this: { [kResource]: AsyncResource }) {
      return this[kResource];
    },
    DEP0172,
    'DEP0172',
  ),
  set: deprecate(
    function (this: { [kResource]: AsyncResource }, value: AsyncResource) {
      this[kResource] = value;
    },
    DEP0172,
    'DEP0172',
  ),
};

type Bound = (...args: unknown[]) => unknown;
type Bind = (this: AsyncResource, fn: Bound, thisArg?: unknown) => Bound;
const nodeBind = Reflect.get(AsyncResource.prototype, 'bind') as Bind;

/**
 * AsyncResource#bind as Node 20 defines it, but without a hidden class per call. http2's
 * ClientHttp2Session#request binds every new stream, so grpc-js calls it for every gRPC call.
 * Node 20 gives each bound function an `asyncResource` accessor made by util.deprecate around new
 * closures, and util.deprecate sets the prototype of its wrapper to the closure: a new hidden
 * class each time. V8 keeps hidden classes in the old generation, and from there each holds its
 * young closure and, through the closure's scope, the stream with its call; the scavenger cannot
 * tell the class is garbage, so every call's objects survive until a full GC (with grpc-js alone:
 * about 2 MB kept per scavenge at 500 calls/s instead of 50 KB, and full GCs every few seconds).
 * Later Node versions stop setting that prototype (nodejs/node#58218).
 */
function leanBind(this: AsyncResource, fn: Bound, thisArg?: unknown): Bound {
  if (typeof fn !== 'function') return nodeBind.call(this, fn, thisArg); // Node's own error
  return bindTo(this, fn, thisArg);
}

function bindTo(resource: AsyncResource, fn: Bound, thisArg: unknown): Bound {
  const bound =
    thisArg === undefined
      ? function (this: unknown, ...args: unknown[]) {
          return resource.runInAsyncScope(fn, this, ...args);
        }
      : resource.runInAsyncScope.bind(resource, fn, thisArg);
  Object.defineProperty(bound, 'length', { configurable: true, enumerable: false, writable: false, value: fn.length });
  (bound as unknown as { [kResource]: AsyncResource })[kResource] = resource;
  Object.defineProperty(bound, 'asyncResource', asyncResourceProperty);
  return bound;
}

/** Replaces AsyncResource#bind in this thread (each worker thread has its own); the entry points call it first. */
export function useLeanAsyncResourceBind(): void {
  AsyncResource.prototype.bind = leanBind as AsyncResource['bind'];
}
