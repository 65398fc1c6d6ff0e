import { AsyncResource, executionAsyncId } from 'node:async_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInThisContext } from 'node:vm';
import { useLeanAsyncResourceBind } from './async-resource-bind';

setFlagsFromString('--allow-natives-syntax');
// a V8 intrinsic: whether two objects have the same hidden class
const haveSameMap = runInThisContext('(a, b) => %HaveSameMap(a, b)') as (a: object, b: object) => boolean;

describe('useLeanAsyncResourceBind', () => {
  const nodeBind: unknown = Reflect.get(AsyncResource.prototype, 'bind');
  /** The getters of the `asyncResource` property of two bound functions. */
  const gettersOfTwo = (): object[] =>
    [new AsyncResource('A').bind(() => 1), new AsyncResource('B').bind((x: number) => x)].map(
      (bound) => Reflect.get(Object.getOwnPropertyDescriptor(bound, 'asyncResource')!, 'get') as object,
    );
  afterAll(() => {
    Reflect.set(AsyncResource.prototype, 'bind', nodeBind);
  });

  it("gives no bound function a hidden class of its own (Node 20's bind makes one per call)", () => {
    const [nodeA, nodeB] = gettersOfTwo();
    expect(haveSameMap(nodeA, nodeB)).toBe(false);
    useLeanAsyncResourceBind();
    const [leanA, leanB] = gettersOfTwo();
    expect(haveSameMap(leanA, leanB)).toBe(true);
  });

  it('runs the function in the resource’s scope with the call’s `this` and arguments, as Node’s does', () => {
    useLeanAsyncResourceBind();
    const resource = new AsyncResource('Test');
    const seen: unknown[] = [];
    const bound = resource.bind(function (this: unknown, a: number, b: number) {
      seen.push(executionAsyncId(), this, a + b);
      return 'done';
    });
    const self = { name: 'caller' };
    expect(bound.call(self, 1, 2)).toBe('done');
    expect(seen).toEqual([resource.asyncId(), self, 3]);
    expect(bound.length).toBe(2);
  });

  it('binds `thisArg` when given, and keeps the asyncResource property', () => {
    useLeanAsyncResourceBind();
    const resource = new AsyncResource('Test');
    const owner = { n: 7 };
    // Node's typings leave out bind's second argument
    const bindWithThis = resource.bind.bind(resource) as unknown as (fn: (this: { n: number }) => unknown, thisArg: object) => () => unknown;
    const bound = bindWithThis(function (this: { n: number }) {
      return [executionAsyncId(), this.n];
    }, owner);
    expect(bound()).toEqual([resource.asyncId(), 7]);
    const withProperty = bound as unknown as { asyncResource: AsyncResource };
    const warn = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      expect(withProperty.asyncResource).toBe(resource);
      const other = new AsyncResource('Other');
      withProperty.asyncResource = other;
      expect(withProperty.asyncResource).toBe(other);
    } finally {
      warn.mockRestore();
    }
  });

  it('refuses a non-function with Node’s own error', () => {
    useLeanAsyncResourceBind();
    expect(() => new AsyncResource('Test').bind(42 as unknown as () => void)).toThrow(expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE' }));
  });
});
