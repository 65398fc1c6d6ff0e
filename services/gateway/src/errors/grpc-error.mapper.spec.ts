import { GrpcStatus } from '@platform/errors';
import { ERROR_STATUS, ErrorType, isRetryable } from './api-error';
import { grpcStatusToErrorType, isGrpcCallError } from './grpc-error.mapper';

/** The whole table, written out: a change to the mapping must change this test too. */
const EXPECTED: Record<GrpcStatus, [ErrorType, number]> = {
  [GrpcStatus.OK]: ['internal_error', 500],
  [GrpcStatus.CANCELLED]: ['service_unavailable', 503],
  [GrpcStatus.UNKNOWN]: ['internal_error', 500],
  [GrpcStatus.INVALID_ARGUMENT]: ['invalid_parameters', 400],
  [GrpcStatus.DEADLINE_EXCEEDED]: ['service_unavailable', 503],
  [GrpcStatus.NOT_FOUND]: ['not_found', 404],
  [GrpcStatus.ALREADY_EXISTS]: ['conflict', 409],
  [GrpcStatus.PERMISSION_DENIED]: ['forbidden', 403],
  [GrpcStatus.RESOURCE_EXHAUSTED]: ['too_many_requests', 429],
  [GrpcStatus.FAILED_PRECONDITION]: ['conflict', 409],
  [GrpcStatus.ABORTED]: ['conflict', 409],
  [GrpcStatus.OUT_OF_RANGE]: ['invalid_parameters', 400],
  [GrpcStatus.UNIMPLEMENTED]: ['not_implemented', 501],
  [GrpcStatus.INTERNAL]: ['internal_error', 500],
  [GrpcStatus.UNAVAILABLE]: ['service_unavailable', 503],
  [GrpcStatus.DATA_LOSS]: ['internal_error', 500],
  [GrpcStatus.UNAUTHENTICATED]: ['unauthorized', 401],
};

const ALL_STATUSES = Object.values(GrpcStatus).filter((v): v is GrpcStatus => typeof v === 'number');

describe('gRPC status → HTTP error', () => {
  it('covers every gRPC status', () => {
    expect(ALL_STATUSES).toHaveLength(17);
    expect(
      Object.keys(EXPECTED)
        .map(Number)
        .sort((a, b) => a - b),
    ).toEqual(ALL_STATUSES);
  });

  it.each(ALL_STATUSES.map((s) => [GrpcStatus[s], s] as const))('maps %s', (_name, status) => {
    const [type, http] = EXPECTED[status];
    expect(grpcStatusToErrorType(status)).toBe(type);
    expect(ERROR_STATUS[grpcStatusToErrorType(status)]).toBe(http);
  });

  it('tells the SDK not to retry exactly 400, 401, 403, 404, 405, 409, 413, 415 and 501', () => {
    const notRetried = (Object.keys(ERROR_STATUS) as ErrorType[]).filter((t) => !isRetryable(t)).map((t) => ERROR_STATUS[t]);
    expect(notRetried.sort()).toEqual([400, 401, 403, 404, 405, 409, 413, 415, 501]);
  });

  it('recognises grpc-js errors by their numeric code only', () => {
    expect(isGrpcCallError({ code: 5, details: 'x' })).toBe(true);
    expect(isGrpcCallError({ code: 'ECONNREFUSED' })).toBe(false);
    expect(isGrpcCallError({ code: 99 })).toBe(false);
    expect(isGrpcCallError(new Error('plain'))).toBe(false);
  });
});
