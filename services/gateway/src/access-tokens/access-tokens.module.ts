import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { RateLimiter } from '../rate-limit/token-bucket';
import { AccessGuard } from './access.guard';
import { AccessTokenRepository } from './access-token.repository';
import { AccessTokensService } from './access-tokens.service';

/** Access tokens (`gateway.access_tokens`) and the guard that checks them on every route. */
@Module({
  providers: [AccessTokenRepository, AccessTokensService, RateLimiter, { provide: APP_GUARD, useClass: AccessGuard }],
  exports: [AccessTokensService],
})
export class AccessTokensModule {}
