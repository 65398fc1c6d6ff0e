import { Module } from '@nestjs/common';
import { RateLimiter } from '../rate-limit/token-bucket';
import { AccessTokenRepository } from './access-token.repository';
import { AccessTokensService } from './access-tokens.service';

/** Access tokens (`gateway.access_tokens`) and the rate limiter; AppModule makes AccessGuard global (before JsonBodyGuard). */
@Module({
  providers: [AccessTokenRepository, AccessTokensService, RateLimiter],
  exports: [AccessTokensService, RateLimiter],
})
export class AccessTokensModule {}
