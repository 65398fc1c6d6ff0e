/**
 * Errors a service throws for a rule of the spec. The code says what went wrong; the
 * transports (gRPC in services, HTTP in the gateway) each map codes exactly once.
 */
export enum ErrorCode {
  INVALID_PARAMETERS = 'INVALID_PARAMETERS',
  NOT_FOUND = 'NOT_FOUND',
  /** The current state forbids the action (cancel a non-waiting upload, …). */
  PRECONDITION_FAILED = 'PRECONDITION_FAILED',
  ALREADY_EXISTS = 'ALREADY_EXISTS',
  UNAUTHENTICATED = 'UNAUTHENTICATED',
  PERMISSION_DENIED = 'PERMISSION_DENIED',
  RATE_LIMITED = 'RATE_LIMITED',
  NOT_IMPLEMENTED = 'NOT_IMPLEMENTED',
  UNAVAILABLE = 'UNAVAILABLE',
  INTERNAL = 'INTERNAL',
}

export class DomainError extends Error {
  readonly messages: string[];

  constructor(
    readonly code: ErrorCode,
    messages: string | string[],
  ) {
    const list = Array.isArray(messages) ? messages : [messages];
    super(list.join('; '));
    this.name = 'DomainError';
    this.messages = list;
  }

  static notFound(what: string): DomainError {
    return new DomainError(ErrorCode.NOT_FOUND, `${what} not found`);
  }

  static invalid(...messages: string[]): DomainError {
    return new DomainError(ErrorCode.INVALID_PARAMETERS, messages);
  }

  static precondition(message: string): DomainError {
    return new DomainError(ErrorCode.PRECONDITION_FAILED, message);
  }
}
