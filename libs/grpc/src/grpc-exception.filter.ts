import { ArgumentsHost, Catch, Logger, RpcExceptionFilter } from '@nestjs/common';
import { RpcException } from '@nestjs/microservices';
import { DomainError, encodeMessages, errorCodeToGrpcStatus, GrpcStatus } from '@platform/errors';
import { Observable, throwError } from 'rxjs';

/** Turns whatever a handler throws into a gRPC status: domain errors keep their meaning, the rest become INTERNAL. */
@Catch()
export class GrpcExceptionFilter implements RpcExceptionFilter<unknown> {
  private readonly logger = new Logger('GrpcExceptionFilter');

  catch(exception: unknown, _host: ArgumentsHost): Observable<never> {
    return throwError(() => toGrpcError(exception, this.logger));
  }
}

export function toGrpcError(exception: unknown, logger?: Logger): { code: number; message: string } {
  if (exception instanceof DomainError) {
    return { code: errorCodeToGrpcStatus(exception.code), message: encodeMessages(exception.messages) };
  }
  if (exception instanceof RpcException) {
    const e = exception.getError();
    if (typeof e === 'object' && e !== null && 'code' in e) return e as { code: number; message: string };
  }
  logger?.error(exception instanceof Error ? exception.stack ?? exception.message : String(exception));
  return { code: GrpcStatus.INTERNAL, message: encodeMessages(['Internal error']) };
}
