import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { ApiError } from '../errors/api-error';
import { RateLimiter } from '../rate-limit/token-bucket';
import { AccessTokensService } from './access-tokens.service';
import { parseBasicAuth } from './basic-credentials';
import { grants, requiredPermission } from './permissions';
import { IS_PUBLIC } from './public.decorator';

const CHALLENGE = { 'www-authenticate': 'Basic realm="video-platform"' };

/**
 * Every route but the @Public ones: HTTP Basic with an access token (401), then the
 * token's rate limit (429), then the permission the route's path and method need (403).
 */
@Injectable()
export class AccessGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly tokens: AccessTokensService,
    private readonly rateLimiter: RateLimiter,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()])) return true;
    const req = context.switchToHttp().getRequest<Request>();

    const credentials = parseBasicAuth(req.headers.authorization);
    if (!credentials) throw new ApiError('unauthorized', 'Missing or malformed HTTP Basic credentials (access token id and secret)', CHALLENGE);
    const token = await this.tokens.authenticate(credentials.id, credentials.secret);
    if (!token) throw new ApiError('unauthorized', 'Invalid access token id or secret', CHALLENGE);

    const rate = this.rateLimiter.take(token.id);
    if (!rate.allowed) {
      throw new ApiError('too_many_requests', `Rate limit exceeded; retry after ${rate.retryAfterSeconds} s`, {
        'retry-after': String(rate.retryAfterSeconds),
      });
    }

    // The route's own pattern, not the raw URL: express matches paths case-insensitively.
    const route = req.route as { path?: unknown } | undefined;
    const routePath = typeof route?.path === 'string' ? route.path : req.path;
    const needed = requiredPermission(req.method, routePath);
    if (needed && !grants(token.permissions, needed)) {
      throw new ApiError('forbidden', `This access token lacks the ${needed} permission`);
    }
    return true;
  }
}
