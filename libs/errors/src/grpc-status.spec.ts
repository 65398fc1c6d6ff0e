import { DomainError, ErrorCode } from './domain-error';
import { decodeMessages, encodeMessages, errorCodeToGrpcStatus, GrpcStatus, refusalFromGrpc } from './grpc-status';

describe('error codes over gRPC', () => {
  it('maps every domain code to a distinct gRPC status', () => {
    const statuses = Object.values(ErrorCode).map(errorCodeToGrpcStatus);
    expect(new Set(statuses).size).toBe(Object.values(ErrorCode).length);
    expect(errorCodeToGrpcStatus(ErrorCode.PRECONDITION_FAILED)).toBe(GrpcStatus.FAILED_PRECONDITION);
    expect(errorCodeToGrpcStatus(ErrorCode.NOT_IMPLEMENTED)).toBe(GrpcStatus.UNIMPLEMENTED);
  });

  it('round-trips several messages through the details string', () => {
    const err = DomainError.invalid('limit must be at most 10', 'page must be at least 1');
    expect(decodeMessages(encodeMessages(err.messages))).toEqual(['limit must be at most 10', 'page must be at least 1']);
  });

  it('treats plain details as one message', () => {
    expect(decodeMessages('No connection established')).toEqual(['No connection established']);
    expect(decodeMessages('{"a":1}')).toEqual(['{"a":1}']);
    expect(decodeMessages(undefined)).toEqual([]);
  });
});

describe('refusalFromGrpc', () => {
  it('turns a refusal into the DomainError it carries, and leaves other failures as they are', () => {
    const refused = refusalFromGrpc({ code: GrpcStatus.INVALID_ARGUMENT, details: '["a: bad","b: bad"]' });
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({ code: ErrorCode.INVALID_PARAMETERS, messages: ['a: bad', 'b: bad'] });
    expect(refusalFromGrpc({ code: GrpcStatus.UNIMPLEMENTED, details: 'x' })).toMatchObject({ code: ErrorCode.NOT_IMPLEMENTED, messages: ['x'] });
    const outage = { code: GrpcStatus.UNAVAILABLE, details: 'connect ECONNREFUSED' };
    expect(refusalFromGrpc(outage)).toBe(outage);
  });
});
