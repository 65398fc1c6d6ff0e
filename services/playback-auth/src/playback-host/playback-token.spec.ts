import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import Mux from '@mux/mux-node';
import { fakeUnitOfWork } from '@platform/testing';
import { SignJWT } from 'jose';
import { SigningKeyRepository } from '../signing-keys/signing-key.repository';
import { SigningKeysService } from '../signing-keys/signing-keys.service';
import { InMemorySigningKeys } from '../testing';
import { verifyPlaybackToken } from './playback-token';

const PLAYBACK_ID = 'pbSigned0123456789';

/** The options of `mux.jwt.signPlaybackId` these tests use (single type: one token). */
type SdkSignOptions = {
  keyId?: string;
  keySecret?: string;
  expiration?: string;
  type?: 'video' | 'thumbnail' | 'gif' | 'storyboard';
  params?: Record<string, string>;
};

describe('verifyPlaybackToken', () => {
  const mux = new Mux({ tokenId: 'unused', tokenSecret: 'unused', baseURL: 'http://127.0.0.1:9' });
  const keys = new SigningKeysService(new InMemorySigningKeys() as unknown as SigningKeyRepository, fakeUnitOfWork().unitOfWork);
  const publicKeyOf = (kid: string) => keys.findActivePublicKey(kid);
  let key: { id: string; secret: string };
  let other: { id: string; secret: string };

  beforeAll(async () => {
    const [a, b] = [await keys.create(), await keys.create()];
    key = { id: a.id, secret: a.private_key! };
    other = { id: b.id, secret: b.private_key! };
  });

  /** A token made by the official SDK, as a customer's server makes it. */
  const sdkToken = (playbackId: string, options: SdkSignOptions = {}) =>
    mux.jwt.signPlaybackId(playbackId, { keyId: key.id, keySecret: key.secret, expiration: '1h', ...options });
  const pem = (secret: string) => createPrivateKey(Buffer.from(secret, 'base64').toString('utf8'));
  const verify = (token: string | undefined) => verifyPlaybackToken(token, PLAYBACK_ID, publicKeyOf);

  describe('accepts', () => {
    it('a token of the official SDK (kid in the payload, SDK 8 and later)', async () => {
      const token = await sdkToken(PLAYBACK_ID);
      expect(JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString())).toEqual({ alg: 'RS256', typ: 'JWT' });
      expect(JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString())).toMatchObject({ kid: key.id, sub: PLAYBACK_ID, aud: 'v' });
      expect(await verify(token)).toEqual({ ok: true, grant: { kid: key.id, claims: { kid: key.id, sub: PLAYBACK_ID, aud: 'v', exp: expect.any(Number) } } });
    });

    it('the playback_restriction_id an SDK token carries in params', async () => {
      const token = await sdkToken(PLAYBACK_ID, { params: { playback_restriction_id: 'restriction-1' } });
      expect(await verify(token)).toMatchObject({ ok: true, grant: { kid: key.id, playbackRestrictionId: 'restriction-1' } });
    });

    it('a token with kid in the JWT header, as older SDKs make it', async () => {
      const token = await new SignJWT({ sub: PLAYBACK_ID, aud: 'v' })
        .setProtectedHeader({ alg: 'RS256', kid: key.id })
        .setExpirationTime('10m')
        .sign(pem(key.secret));
      expect(await verify(token)).toEqual({ ok: true, grant: { kid: key.id, claims: { sub: PLAYBACK_ID, aud: 'v', exp: expect.any(Number) } } });
    });

    it('kid in both places when they agree', async () => {
      const token = await new SignJWT({ sub: PLAYBACK_ID, aud: 'v', kid: key.id })
        .setProtectedHeader({ alg: 'RS256', kid: key.id })
        .setExpirationTime('10m')
        .sign(pem(key.secret));
      expect((await verify(token)).ok).toBe(true);
    });
  });

  describe('tokens for images', () => {
    it('takes a thumbnail (t), animated image (g) or storyboard (s) token for its own audience only, with its claims', async () => {
      const thumbnail = await sdkToken(PLAYBACK_ID, { type: 'thumbnail', params: { time: '4', width: '320' } });
      const check = await verifyPlaybackToken(thumbnail, PLAYBACK_ID, publicKeyOf, new Date(), 't');
      expect(check).toMatchObject({ ok: true, grant: { claims: { aud: 't', time: '4', width: '320' } } });
      expect(await verifyPlaybackToken(await sdkToken(PLAYBACK_ID, { type: 'gif' }), PLAYBACK_ID, publicKeyOf, new Date(), 'g')).toMatchObject({ ok: true });
      expect(await verifyPlaybackToken(await sdkToken(PLAYBACK_ID, { type: 'storyboard' }), PLAYBACK_ID, publicKeyOf, new Date(), 's')).toMatchObject({
        ok: true,
      });
    });

    it('refuses a token of another audience, naming the one needed', async () => {
      const video = await sdkToken(PLAYBACK_ID);
      expect(await verifyPlaybackToken(video, PLAYBACK_ID, publicKeyOf, new Date(), 't')).toEqual({
        ok: false,
        reason: 'Token audience (aud) must be "t" for thumbnails',
      });
      const storyboard = await sdkToken(PLAYBACK_ID, { type: 'storyboard' });
      expect(await verifyPlaybackToken(storyboard, PLAYBACK_ID, publicKeyOf, new Date(), 'g')).toEqual({
        ok: false,
        reason: 'Token audience (aud) must be "g" for animated images',
      });
      expect(await verify(storyboard)).toEqual({ ok: false, reason: 'Token audience (aud) must be "v" for video playback' });
    });
  });

  describe('refuses, each with its own reason', () => {
    const refusal = async (token: string | undefined) => {
      const check = await verify(token);
      expect(check.ok).toBe(false);
      return (check as { reason: string }).reason;
    };

    it('no token', async () => {
      expect(await refusal(undefined)).toBe('Token is required for a signed playback ID');
      expect(await refusal('')).toBe('Token is required for a signed playback ID');
    });

    it.each(['not-a-jwt', 'a.b.c', 'eyJhbGciOiJSUzI1NiJ9.bm90IGpzb24.c2ln'])('a malformed token %j', async (token) => {
      expect(await refusal(token)).toBe('Token is malformed: not a JWT');
    });

    it('an expired token (SDK, signed two hours ago for one hour)', async () => {
      const now = jest.spyOn(Date, 'now').mockReturnValue(Date.now() - 2 * 3600 * 1000);
      const token = await sdkToken(PLAYBACK_ID, { expiration: '1h' });
      now.mockRestore();
      expect(await refusal(token)).toBe('Token is expired');
    });

    it('the wrong audience (SDK thumbnail token, aud t)', async () => {
      expect(await refusal(await sdkToken(PLAYBACK_ID, { type: 'thumbnail' }))).toBe('Token audience (aud) must be "v" for video playback');
    });

    it('a token for another playback id', async () => {
      expect(await refusal(await sdkToken('someOtherPlaybackId'))).toBe('Token is for another playback ID');
    });

    it('a token of an unknown key, and of a deleted one', async () => {
      expect(await refusal(await sdkToken(PLAYBACK_ID, { keyId: 'no-such-key' }))).toBe('Token signing key is unknown or was deleted');
      const doomed = await keys.create();
      const token = await sdkToken(PLAYBACK_ID, { keyId: doomed.id, keySecret: doomed.private_key! });
      expect((await verify(token)).ok).toBe(true);
      await keys.delete(doomed.id);
      expect(await refusal(token)).toBe('Token signing key is unknown or was deleted');
    });

    it('a bad signature: signed by another key than the kid names, or a payload changed after signing', async () => {
      expect(await refusal(await sdkToken(PLAYBACK_ID, { keyId: key.id, keySecret: other.secret }))).toBe('Token signature is invalid');
      const [header, , signature] = (await sdkToken('someOtherPlaybackId')).split('.');
      const payload = Buffer.from(JSON.stringify({ kid: key.id, sub: PLAYBACK_ID, aud: 'v', exp: 9_999_999_999 })).toString('base64url');
      expect(await refusal(`${header}.${payload}.${signature}`)).toBe('Token signature is invalid');
    });

    it('another algorithm than RS256 (HS256 with the public key as secret, none, PS256)', async () => {
      const publicPem = (await publicKeyOf(key.id))!;
      const hs = await new SignJWT({ sub: PLAYBACK_ID, aud: 'v', kid: key.id })
        .setProtectedHeader({ alg: 'HS256' })
        .setExpirationTime('10m')
        .sign(Buffer.from(publicPem));
      expect(await refusal(hs)).toBe('Token algorithm must be RS256, got "HS256"');
      const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify({ sub: PLAYBACK_ID, aud: 'v', kid: key.id, exp: 9_999_999_999 })).toString('base64url')}.`;
      expect(await refusal(none)).toBe('Token algorithm must be RS256, got "none"');
      const ps = await new SignJWT({ sub: PLAYBACK_ID, aud: 'v', kid: key.id })
        .setProtectedHeader({ alg: 'PS256' })
        .setExpirationTime('10m')
        .sign(pem(key.secret));
      expect(await refusal(ps)).toBe('Token algorithm must be RS256, got "PS256"');
    });

    it('no kid anywhere, or two different ones', async () => {
      const noKid = await new SignJWT({ sub: PLAYBACK_ID, aud: 'v' }).setProtectedHeader({ alg: 'RS256' }).setExpirationTime('10m').sign(pem(key.secret));
      expect(await refusal(noKid)).toBe('Token names no signing key (kid)');
      const twoKids = await new SignJWT({ sub: PLAYBACK_ID, aud: 'v', kid: other.id })
        .setProtectedHeader({ alg: 'RS256', kid: key.id })
        .setExpirationTime('10m')
        .sign(pem(key.secret));
      expect(await refusal(twoKids)).toBe('Token names two different signing keys (kid)');
    });

    it('missing claims: exp, aud, sub', async () => {
      const sign = (claims: Record<string, unknown>) => new SignJWT({ kid: key.id, ...claims }).setProtectedHeader({ alg: 'RS256' }).sign(pem(key.secret));
      const exp = Math.floor(Date.now() / 1000) + 600;
      expect(await refusal(await sign({ sub: PLAYBACK_ID, aud: 'v' }))).toBe('Token has no expiration (exp)');
      expect(await refusal(await sign({ sub: PLAYBACK_ID, exp }))).toBe('Token has no audience (aud)');
      expect(await refusal(await sign({ aud: 'v', exp }))).toBe('Token has no playback ID (sub)');
    });

    it('a token not valid yet (nbf), and a restriction id that is not a string', async () => {
      const later = await new SignJWT({ sub: PLAYBACK_ID, aud: 'v', kid: key.id })
        .setProtectedHeader({ alg: 'RS256' })
        .setExpirationTime('2h')
        .setNotBefore('1h')
        .sign(pem(key.secret));
      expect(await refusal(later)).toBe('Token is not valid yet (nbf)');
      const odd = await sdkToken(PLAYBACK_ID, { params: { playback_restriction_id: 42 as unknown as string } });
      expect(await refusal(odd)).toBe('Token is malformed: playback_restriction_id must be a string');
    });

    it('a key pair nobody registered, even with a registered kid', async () => {
      const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
      const token = await new SignJWT({ sub: PLAYBACK_ID, aud: 'v', kid: key.id }).setProtectedHeader({ alg: 'RS256' }).setExpirationTime('10m').sign(stranger);
      expect(await refusal(token)).toBe('Token signature is invalid');
    });
  });
});
