import { ArgumentsHost, Catch, HttpException, Logger, RpcExceptionFilter } from '@nestjs/common';
import { RpcException } from '@nestjs/microservices';
import { DomainError, encodeMessages, errorCodeToGrpcStatus, GrpcStatus } from '@platform/errors';
import type { Response } from 'express';
import { EMPTY, Observable, throwError } from 'rxjs';

/**
 * Turns whatever a gRPC handler throws into a gRPC status: domain errors keep their
 * meaning, the rest become INTERNAL. In a service that also serves HTTP (hybrid app) the
 * filter is global to both; HTTP controllers bring their own filters. An HTTP error that
 * reaches this one was raised before a controller ran (Nest's router: an undecodable
 * `%zz` in the path, an unknown route): a client error keeps its status, anything else is a
 * bare 500 rather than a hung request.
 */
@Catch()
export class GrpcExceptionFilter implements RpcExceptionFilter<unknown> {
  private readonly logger = new Logger('GrpcExceptionFilter');

  catch(exception: unknown, host: ArgumentsHost): Observable<never> {
    if (host.getType() === 'http') {
      answerHttp(exception, host.switchToHttp().getResponse<Response>(), this.logger);
      return EMPTY;
    }
    const error = toGrpcError(exception, this.logger);
    return throwError(() => error);
  }
}

const HTTP_CLIENT_ERROR_TYPES: Readonly<Record<number, string>> = { 404: 'not_found', 405: 'method_not_allowed', 413: 'payload_too_large' };

function answerHttp(exception: unknown, res: Response, logger: Logger): void {
  if (res.headersSent) return;
  const status = exception instanceof HttpException ? exception.getStatus() : 500;
  if (status >= 400 && status < 500) {
    const type = HTTP_CLIENT_ERROR_TYPES[status] ?? 'invalid_parameters';
    res.status(status).json({ error: { type, messages: [(exception as HttpException).message] } });
    return;
  }
  toGrpcError(exception, logger);
  res.status(500).json({ error: { type: 'internal_error', messages: ['Internal error'] } });
}

export function toGrpcError(exception: unknown, logger?: Logger): { code: number; message: string } {
  if (exception instanceof DomainError) {
    return { code: errorCodeToGrpcStatus(exception.code), message: encodeMessages(exception.messages) };
  }
  if (exception instanceof RpcException) {
    const e = exception.getError();
    if (typeof e === 'object' && e !== null && 'code' in e) return e as { code: number; message: string };
  }
  logger?.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
  return { code: GrpcStatus.INTERNAL, message: encodeMessages(['Internal error']) };
}
