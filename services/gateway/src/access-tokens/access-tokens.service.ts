import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import { newId } from '@platform/ids';
import { AccessTokenEntity } from './access-token.entity';
import { AccessTokenRepository } from './access-token.repository';
import { Permission, PERMISSIONS } from './permissions';
import { hashSecret, newSecret, secretMatches } from './secrets';

/** How long a successful lookup is trusted: a revoked token stops working within this time. */
export const TOKEN_CACHE_MS = 30_000;

interface Cached {
  secretHash: string;
  permissions: string[];
  expiresAt: number;
}

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
  private readonly cache = new Map<string, Cached>();

  constructor(
    private readonly tokens: AccessTokenRepository,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
  ) {}

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
    this.cache.delete(bootstrap.id);
    this.logger.log(`Access token ${bootstrap.id} from ACCESS_TOKEN_ID is ready`);
  }

  /** The token these credentials prove, or undefined. */
  async authenticate(id: string, secret: string): Promise<AuthenticatedToken | undefined> {
    const cached = this.cache.get(id);
    if (cached && cached.expiresAt > Date.now()) {
      return secretMatches(secret, cached.secretHash) ? { id, permissions: cached.permissions } : undefined;
    }
    this.cache.delete(id);
    const row = await this.tokens.findActive(id);
    if (!row || !secretMatches(secret, row.secret_hash)) return undefined;
    this.cache.set(id, { secretHash: row.secret_hash, permissions: row.permissions, expiresAt: Date.now() + TOKEN_CACHE_MS });
    return { id, permissions: row.permissions };
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
    this.cache.delete(id);
    return revoked;
  }
}
