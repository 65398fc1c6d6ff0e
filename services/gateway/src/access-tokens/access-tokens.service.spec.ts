import { loadConfig } from '@platform/config';
import { FakeAccessTokenRepository } from '../testing/fake-access-token.repository';
import { AccessTokenRepository } from './access-token.repository';
import { AccessTokensService } from './access-tokens.service';
import { hashSecret } from './secrets';

function setup(env: Record<string, string> = {}) {
  const repo = new FakeAccessTokenRepository();
  const service = new AccessTokensService(repo as unknown as AccessTokenRepository, loadConfig(env));
  return { repo, service };
}

describe('AccessTokensService', () => {
  it('creates a token whose secret is 32 random bytes (base64url) and stores only its SHA-256', async () => {
    const { repo, service } = setup();
    const { id, secret } = await service.create('ci', ['video:write', 'data:read']);
    expect(id).toMatch(/^[0-9A-Za-z]{32}$/);
    expect(Buffer.from(secret, 'base64url')).toHaveLength(32);
    const row = repo.rows.get(id)!;
    expect(row).toMatchObject({ name: 'ci', permissions: ['video:write', 'data:read'], secret_hash: hashSecret(secret) });
    expect(row.secret_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(await service.authenticate(id, secret)).toEqual({ id, permissions: ['video:write', 'data:read'] });
    expect(await service.authenticate(id, `${secret}x`)).toBeUndefined();
  });

  it('upserts the bootstrap token with exactly its id and secret, un-revoking it', async () => {
    const { repo, service } = setup({ ACCESS_TOKEN_ID: 'boot', ACCESS_TOKEN_SECRET: 'boot-secret' });
    await repo.insert({ id: 'boot', name: 'old', secret_hash: hashSecret('old-secret'), permissions: ['video:read'] });
    await repo.revoke('boot');
    await service.onApplicationBootstrap();
    expect(await service.authenticate('boot', 'boot-secret')).toEqual({
      id: 'boot',
      permissions: ['video:read', 'video:write', 'data:read', 'data:write', 'system:read', 'system:write'],
    });
    expect(await service.authenticate('boot', 'old-secret')).toBeUndefined();
  });

  it('creates no token without ACCESS_TOKEN_ID', async () => {
    const { repo, service } = setup();
    await service.onApplicationBootstrap();
    expect(repo.rows.size).toBe(0);
  });

  it('forgets a token it revokes at once, and lists tokens with their state', async () => {
    const { service } = setup();
    const { id, secret } = await service.create('short-lived', ['system:read']);
    expect(await service.authenticate(id, secret)).toBeDefined();
    expect(await service.revoke(id)).toBe(true);
    expect(await service.authenticate(id, secret)).toBeUndefined();
    expect(await service.revoke(id)).toBe(false);
    const [listed] = await service.list();
    expect(listed).toMatchObject({ id, name: 'short-lived', permissions: ['system:read'] });
    expect(listed.revoked_at).toBeInstanceOf(Date);
  });
});
