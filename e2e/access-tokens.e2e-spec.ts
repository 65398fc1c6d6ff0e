import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { api, sdk } from './support/context';

const ROOT = path.resolve(__dirname, '..');

/** `npm run token -- create …` against the running platform, as a user would call it. */
function createToken(permissions: string): { tokenId: string; tokenSecret: string } {
  const env = { ...process.env, ...JSON.parse(process.env.E2E_PLATFORM_ENV ?? '{}') };
  const out = execFileSync(process.execPath, [path.join(ROOT, 'scripts/token.js'), 'create', '--name', `e2e ${permissions}`, '--permissions', permissions], {
    env,
    encoding: 'utf8',
  });
  const id = /ACCESS_TOKEN_ID[=:]\s*(\S+)/.exec(out)?.[1] ?? /id[=:]\s*(\S+)/i.exec(out)?.[1];
  const secret = /ACCESS_TOKEN_SECRET[=:]\s*(\S+)/.exec(out)?.[1] ?? /secret[=:]\s*(\S+)/i.exec(out)?.[1];
  if (!id || !secret) throw new Error(`could not read the token from: ${out}`);
  return { tokenId: id, tokenSecret: secret };
}

describe('access token permissions (spec 5)', () => {
  it('a video-only token works on video routes and is forbidden on system and deprecated signing-key routes', async () => {
    const video = createToken('video:write');
    const restriction = await sdk(video).video.playbackRestrictions.create({
      referrer: { allowed_domains: ['a.test'] },
      user_agent: { allow_no_user_agent: true, allow_high_risk_user_agent: true },
    });
    expect(restriction.referrer.allowed_domains).toEqual(['a.test']);
    for (const p of ['/system/v1/signing-keys', '/video/v1/signing-keys']) {
      const res = await api('GET', p, { auth: video });
      expect(res.status).toBe(403);
      expect(res.body.error.type).toBe('forbidden');
      expect(res.headers.get('x-should-retry')).toBe('false');
    }
  });

  it('a read-only token can read but not write', async () => {
    const reader = createToken('video:read,system:read');
    expect((await api('GET', '/video/v1/playback-restrictions', { auth: reader })).status).toBe(200);
    expect((await api('GET', '/system/v1/signing-keys', { auth: reader })).status).toBe(200);
    const write = await api('POST', '/system/v1/signing-keys', { auth: reader });
    expect(write.status).toBe(403);
    await expect(sdk(reader).video.transcriptionVocabularies.create({ phrases: ['x'] })).rejects.toMatchObject({ status: 403 });
  });

  it('a system token manages signing keys through the SDK', async () => {
    const system = createToken('system:write');
    const key = await sdk(system).system.signingKeys.create();
    expect(key.private_key).toBeTruthy();
    expect((await api('GET', '/video/v1/playback-restrictions', { auth: system })).status).toBe(403);
  });
});
