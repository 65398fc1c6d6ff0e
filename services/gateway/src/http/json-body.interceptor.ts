import { CallHandler, ExecutionContext, Inject, Injectable, NestInterceptor } from '@nestjs/common';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import type { Request } from 'express';
import { from, Observable, switchMap } from 'rxjs';
import { BODY_METHODS, readJsonBody } from './read-json-body';

/**
 * Parses JSON bodies after the guards have run, so an unauthenticated caller's body is
 * never read. The app is created with Nest's own body parser off.
 */
@Injectable()
export class JsonBodyInterceptor implements NestInterceptor {
  constructor(@Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<Request>();
    if (!BODY_METHODS.has(req.method) || req.readableEnded) return next.handle();
    return from(readJsonBody(req, this.config.maxBodyBytes)).pipe(
      switchMap((body) => {
        req.body = body;
        return next.handle();
      }),
    );
  }
}
