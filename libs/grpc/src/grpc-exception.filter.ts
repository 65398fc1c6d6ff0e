import { ArgumentsHost, Catch, Logger, RpcExceptionFilter } from '@nestjs/common';
import { RpcException } from '@nestjs/microservices';
import { DomainError, encodeMessages, errorCodeToGrpcStatus, GrpcStatus } from '@platform/errors';
import type { Response } from 'express';
import { EMPTY, Observable, throwError } from 'rxjs';

/**
 * Turns whatever a gRPC handler throws into a gRPC status: domain errors keep their
 * meaning, the rest become INTERNAL. In a service that also serves HTTP (hybrid app) the
 * filter is global to both; HTTP controllers bring their own filters, and an HTTP error
 * that reaches this one gets a bare 500 rather than a hung request.
 */
@Catch()
export class GrpcExceptionFilter implements RpcExceptionFilter<unknown> {
  private readonly logger = new Logger('GrpcExceptionFilter');

  catch(exception: unknown, host: ArgumentsHost): Observable<never> {
    const error = toGrpcError(exception, this.logger);
    if (host.getType() === 'http') {
      host.switchToHttp().getResponse<Response>().status(500).json({ error: { type: 'internal_error', messages: ['Internal error'] } });
      return EMPTY as Observable<never>;
    }
    return throwError(() => error);
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
