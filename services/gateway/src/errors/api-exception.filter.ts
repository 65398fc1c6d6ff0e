import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Inject, Logger } from '@nestjs/common';
import { decodeMessages, DomainError, errorCodeToGrpcStatus } from '@platform/errors';
import type { Request, Response } from 'express';
import { ApiError, defaultMessage, ERROR_STATUS, ErrorType, isRetryable } from './api-error';
import { AllowedMethods } from '../http/allowed-methods';
import { OpenApiDocument } from '../openapi/openapi.document';
import { grpcStatusToErrorType, isGrpcCallError } from './grpc-error.mapper';

/**
 * Every error leaves the gateway here, as Mux's body `{"error":{"type","messages"}}`.
 * Server-side failures never show their internals; they are logged instead.
 */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('ApiExceptionFilter');
  private allowed: AllowedMethods | undefined;

  constructor(@Inject(OpenApiDocument) private readonly document: OpenApiDocument) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    const error = this.toApiError(exception, req);
    if (error.type === 'internal_error') this.logger.error(`${req.method} ${req.originalUrl}: ${describe(exception)}`);
    else if (error.type === 'service_unavailable') this.logger.warn(`${req.method} ${req.originalUrl}: ${describe(exception)}`);
    if (res.headersSent) return;
    res.status(error.status);
    for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
    if (!isRetryable(error.type)) res.setHeader('x-should-retry', 'false');
    res.json({ error: { type: error.type, messages: error.messages } });
  }

  toApiError(exception: unknown, req: Pick<Request, 'method' | 'path'>): ApiError {
    if (exception instanceof ApiError) return exception;
    if (exception instanceof DomainError) return fromGrpc(errorCodeToGrpcStatus(exception.code), exception.messages);
    if (isGrpcCallError(exception)) return fromGrpc(exception.code, decodeMessages(exception.details));
    if (exception instanceof HttpException) {
      if (exception.getStatus() === 404) return this.unrouted(req);
      return fromHttpException(exception);
    }
    return new ApiError('internal_error');
  }

  /** No route took the request: 405 with `Allow` when the path exists with other methods. */
  private unrouted(req: Pick<Request, 'method' | 'path'>): ApiError {
    this.allowed ??= new AllowedMethods(this.document.get());
    const methods = this.allowed.of(req.path);
    if (methods === undefined) return new ApiError('not_found', `No route ${req.method} ${req.path}`);
    return new ApiError('method_not_allowed', `${req.method} is not allowed on ${req.path}; allowed: ${methods.join(', ')}`, { allow: methods.join(', ') });
  }
}

function describe(exception: unknown): string {
  if (isGrpcCallError(exception)) return `gRPC status ${exception.code}: ${exception.details ?? ''}`;
  return exception instanceof Error ? (exception.stack ?? exception.message) : String(exception);
}

/** Messages of client errors come from the service; those of server errors are generic. */
function fromGrpc(code: number, messages: string[]): ApiError {
  const type = grpcStatusToErrorType(code);
  const status = ERROR_STATUS[type];
  const keep = status < 500 || type === 'not_implemented';
  return new ApiError(type, keep ? messages : [defaultMessage(type)]);
}

/** Nest's own exceptions other than the unknown route: anything the framework raises. */
function fromHttpException(exception: HttpException): ApiError {
  const status = exception.getStatus();
  const type = (Object.keys(ERROR_STATUS) as ErrorType[]).find((t) => ERROR_STATUS[t] === status);
  if (type === undefined) return new ApiError(status < 500 ? 'invalid_parameters' : 'internal_error');
  return new ApiError(type, ERROR_STATUS[type] < 500 ? exception.message : defaultMessage(type));
}
