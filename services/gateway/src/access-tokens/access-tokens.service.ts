import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import { newId } from '@platform/ids';
import { AccessTokenEntity } from './access-token.entity';
import { AccessTokenRepository } from './access-token.repository';
import { Permission, PERMISSIONS } from './permissions';
import { hashSecret, newSecret, secretMatches } from './secrets';
import { TokenCache } from './token-cache';

export interface AuthenticatedToken {
  id: string;
  permissions: readonly string[];
}

export interface AccessTokenSummary {
  id: string;
  name: string;
  permissions: string[];
  created_at: Date;
  revoked_at: Date | null;
}

@Injectable()
export class AccessTokensService implements OnApplicationBootstrap {
  private readonly logger = new Logger('AccessTokens');
  private readonly cache: TokenCache;

  constructor(
    private readonly tokens: AccessTokenRepository,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
  ) {
    this.cache = new TokenCache(async (id) => {
      const row = await this.tokens.findActive(id);
      return row ? { secretHash: row.secret_hash, permissions: row.permissions } : undefined;
    });
  }

  /** ACCESS_TOKEN_ID/SECRET: a full-permission token with exactly those credentials. */
  async onApplicationBootstrap(): Promise<void> {
    const bootstrap = this.config.bootstrapToken;
    if (!bootstrap) return;
    await this.tokens.upsert({
      id: bootstrap.id,
      name: 'bootstrap (ACCESS_TOKEN_ID)',
      secret_hash: hashSecret(bootstrap.secret),
      permissions: [...PERMISSIONS],
    });
    this.cache.forget(bootstrap.id);
    this.logger.log(`Access token ${bootstrap.id} from ACCESS_TOKEN_ID is ready`);
  }

  /** The token these credentials prove, or undefined. */
  async authenticate(id: string, secret: string): Promise<AuthenticatedToken | undefined> {
    const row = await this.cache.get(id);
    return row && secretMatches(secret, row.secretHash) ? { id, permissions: row.permissions } : undefined;
  }

  /** A new token; its secret exists only in the return value. */
  async create(name: string, permissions: Permission[]): Promise<{ id: string; secret: string }> {
    const id = newId();
    const secret = newSecret();
    await this.tokens.insert({ id, name, secret_hash: hashSecret(secret), permissions });
    return { id, secret };
  }

  async list(): Promise<AccessTokenSummary[]> {
    return (await this.tokens.list()).map((t: AccessTokenEntity) => ({
      id: t.id,
      name: t.name,
      permissions: t.permissions,
      created_at: t.created_at,
      revoked_at: t.revoked_at,
    }));
  }

  async revoke(id: string): Promise<boolean> {
    const revoked = await this.tokens.revoke(id);
    this.cache.forget(id);
    return revoked;
  }
}
