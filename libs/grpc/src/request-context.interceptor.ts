import { CallHandler, ExecutionContext, NestInterceptor } from '@nestjs/common';
import type { Metadata } from '@grpc/grpc-js';
import { Observable } from 'rxjs';
import { REQUEST_ID_HEADER, validRequestId, withCallContext } from './request-context';

/**
 * A gRPC method runs as a call of its service, part of the request whose id its metadata carries: its
 * logs say so, and its own calls carry the id on.
 */
export class RequestContextInterceptor implements NestInterceptor {
  constructor(private readonly service: string) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'rpc') return next.handle();
    const metadata = context.switchToRpc().getContext<Metadata | undefined>();
    const requestId = validRequestId(metadata?.get?.(REQUEST_ID_HEADER)?.[0]);
    const call = { service: this.service, ...(requestId ? { requestId } : {}) };
    return new Observable((subscriber) => withCallContext(call, () => next.handle().subscribe(subscriber)));
  }
}
