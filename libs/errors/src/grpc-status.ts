import { DomainError, ErrorCode } from './domain-error';

/** gRPC status codes (the numeric values of @grpc/grpc-js `status`), kept here so libs need no grpc import. */
export enum GrpcStatus {
  OK = 0,
  CANCELLED = 1,
  UNKNOWN = 2,
  INVALID_ARGUMENT = 3,
  DEADLINE_EXCEEDED = 4,
  NOT_FOUND = 5,
  ALREADY_EXISTS = 6,
  PERMISSION_DENIED = 7,
  RESOURCE_EXHAUSTED = 8,
  FAILED_PRECONDITION = 9,
  ABORTED = 10,
  OUT_OF_RANGE = 11,
  UNIMPLEMENTED = 12,
  INTERNAL = 13,
  UNAVAILABLE = 14,
  DATA_LOSS = 15,
  UNAUTHENTICATED = 16,
}

export function errorCodeToGrpcStatus(code: ErrorCode): GrpcStatus {
  switch (code) {
    case ErrorCode.INVALID_PARAMETERS:
      return GrpcStatus.INVALID_ARGUMENT;
    case ErrorCode.NOT_FOUND:
      return GrpcStatus.NOT_FOUND;
    case ErrorCode.PRECONDITION_FAILED:
      return GrpcStatus.FAILED_PRECONDITION;
    case ErrorCode.ALREADY_EXISTS:
      return GrpcStatus.ALREADY_EXISTS;
    case ErrorCode.UNAUTHENTICATED:
      return GrpcStatus.UNAUTHENTICATED;
    case ErrorCode.PERMISSION_DENIED:
      return GrpcStatus.PERMISSION_DENIED;
    case ErrorCode.RATE_LIMITED:
      return GrpcStatus.RESOURCE_EXHAUSTED;
    case ErrorCode.NOT_IMPLEMENTED:
      return GrpcStatus.UNIMPLEMENTED;
    case ErrorCode.UNAVAILABLE:
      return GrpcStatus.UNAVAILABLE;
    case ErrorCode.INTERNAL:
      return GrpcStatus.INTERNAL;
  }
}

/**
 * Messages travel in the gRPC `details` string as a JSON array so a validation error with
 * several messages survives the hop; plain text (from grpc-js itself) is one message.
 */
export function encodeMessages(messages: string[]): string {
  return JSON.stringify(messages);
}

export function decodeMessages(details: string | undefined): string[] {
  if (!details) return [];
  try {
    const parsed: unknown = JSON.parse(details);
    if (Array.isArray(parsed) && parsed.every((m) => typeof m === 'string')) return parsed;
  } catch {
    // not JSON: a message from grpc-js or a peer
  }
  return [details];
}

/** gRPC answers of another service that a retry cannot change, as the DomainError they carry. */
const REFUSALS: Partial<Record<number, ErrorCode>> = {
  [GrpcStatus.INVALID_ARGUMENT]: ErrorCode.INVALID_PARAMETERS,
  [GrpcStatus.UNIMPLEMENTED]: ErrorCode.NOT_IMPLEMENTED,
  [GrpcStatus.FAILED_PRECONDITION]: ErrorCode.PRECONDITION_FAILED,
};

/**
 * A called service's refusal (invalid, not implemented, precondition) as a DomainError with its
 * messages, so the caller can pass it on; anything else (unreachable, internal) is returned as it was.
 */
export function refusalFromGrpc(err: unknown): unknown {
  const { code, details } = (err ?? {}) as { code?: number; details?: string };
  const mapped = code === undefined ? undefined : REFUSALS[code];
  return mapped ? new DomainError(mapped, decodeMessages(details)) : err;
}
