import { DomainError } from '@platform/errors';

/** Awaits a promise that must reject with a DomainError and returns that error. */
export async function rejection(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}
