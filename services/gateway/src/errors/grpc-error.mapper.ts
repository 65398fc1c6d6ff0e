import { GrpcStatus } from '@platform/errors';
import { ErrorType } from './api-error';

/** The shape of an error from a @grpc/grpc-js call (a ServiceError). */
export interface GrpcCallError {
  code: number;
  details?: string;
}

export function isGrpcCallError(err: unknown): err is GrpcCallError {
  if (typeof err !== 'object' || err === null) return false;
  const code = (err as { code?: unknown }).code;
  return typeof code === 'number' && Number.isInteger(code) && code >= Number(GrpcStatus.OK) && code <= Number(GrpcStatus.UNAUTHENTICATED);
}

/**
 * The one place a gRPC status from a service becomes an HTTP error type (and so a status).
 * Exhaustive: a status added to GrpcStatus fails to compile here until it is mapped.
 */
export function grpcStatusToErrorType(code: GrpcStatus): ErrorType {
  switch (code) {
    case GrpcStatus.INVALID_ARGUMENT:
    case GrpcStatus.OUT_OF_RANGE:
      return 'invalid_parameters';
    case GrpcStatus.UNAUTHENTICATED:
      return 'unauthorized';
    case GrpcStatus.PERMISSION_DENIED:
      return 'forbidden';
    case GrpcStatus.NOT_FOUND:
      return 'not_found';
    case GrpcStatus.ALREADY_EXISTS:
    case GrpcStatus.FAILED_PRECONDITION:
    case GrpcStatus.ABORTED:
      return 'conflict';
    case GrpcStatus.RESOURCE_EXHAUSTED:
      return 'too_many_requests';
    case GrpcStatus.UNIMPLEMENTED:
      return 'not_implemented';
    case GrpcStatus.UNAVAILABLE:
    case GrpcStatus.DEADLINE_EXCEEDED:
    case GrpcStatus.CANCELLED:
      return 'service_unavailable';
    case GrpcStatus.OK: // an error carrying OK is a broken peer
    case GrpcStatus.UNKNOWN:
    case GrpcStatus.INTERNAL:
    case GrpcStatus.DATA_LOSS:
      return 'internal_error';
    default:
      return assertNever(code);
  }
}

function assertNever(code: never): ErrorType {
  void code;
  return 'internal_error';
}
