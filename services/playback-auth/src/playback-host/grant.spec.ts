import { randomBytes } from 'node:crypto';
import { PlatformConfig } from '@platform/config';
import { GrantPayload, signGrant, verifyGrant } from './grant';
import { PlaybackGrants } from './playback-grants';

const key = Buffer.from('k'.repeat(32));
const NOW = 1_700_000_000;

describe('grants', () => {
  const payload: GrantPayload = { p: 'pid', a: 'asset-1', e: NOW + 60, r: 'restriction-1', s: 1 };

  it('is base64url(JSON payload).base64url(HMAC-SHA256) and verifies to the same payload', () => {
    const grant = signGrant(payload, key);
    const [body, mac] = grant.split('.');
    expect(JSON.parse(Buffer.from(body, 'base64url').toString())).toEqual(payload);
    expect(mac).toMatch(/^[A-Za-z0-9_-]{43}$/); // 32 bytes
    expect(verifyGrant(grant, 'pid', key, NOW)).toEqual({ ok: true, grant: payload });
  });

  it('keeps only known fields, with r and s optional', () => {
    const grant = signGrant({ p: 'pid', a: 'a', e: NOW + 1 }, key);
    expect(verifyGrant(grant, 'pid', key, NOW)).toEqual({ ok: true, grant: { p: 'pid', a: 'a', e: NOW + 1 } });
  });

  it('expires at e', () => {
    const grant = signGrant(payload, key);
    expect(verifyGrant(grant, 'pid', key, NOW + 59).ok).toBe(true);
    expect(verifyGrant(grant, 'pid', key, NOW + 60)).toEqual({ ok: false, reason: 'Grant is expired; load the playlist again' });
  });

  it('belongs to one playback id', () => {
    expect(verifyGrant(signGrant(payload, key), 'other', key, NOW)).toEqual({ ok: false, reason: 'Grant is for another playback ID' });
  });

  it('refuses a tampered payload, a tampered signature and another key', () => {
    const grant = signGrant(payload, key);
    const [body, mac] = grant.split('.');
    const forged = Buffer.from(JSON.stringify({ ...payload, e: NOW + 999_999, a: 'someone-elses-asset' })).toString('base64url');
    expect(verifyGrant(`${forged}.${mac}`, 'pid', key, NOW)).toEqual({ ok: false, reason: 'Grant signature is invalid' });
    expect(verifyGrant(`${body}.${mac.slice(0, -2)}xx`, 'pid', key, NOW)).toEqual({ ok: false, reason: 'Grant signature is invalid' });
    expect(verifyGrant(`${body}.${mac}A`, 'pid', key, NOW)).toEqual({ ok: false, reason: 'Grant signature is invalid' });
    expect(verifyGrant(grant, 'pid', randomBytes(32), NOW)).toEqual({ ok: false, reason: 'Grant signature is invalid' });
  });

  it.each(['', 'nodot', '.sig', 'body.', 'a.b.c'])('refuses the malformed grant %j', (grant) => {
    expect(verifyGrant(grant, 'pid', key, NOW)).toEqual({ ok: false, reason: 'Grant is malformed' });
  });

  it('refuses a correctly signed body that is not a grant', () => {
    const body = Buffer.from(JSON.stringify({ p: 'pid', e: 'tomorrow' })).toString('base64url');
    const grant = `${body}.${signGrant(payload, key).split('.')[1]}`;
    expect(verifyGrant(grant, 'pid', key, NOW).ok).toBe(false);
    const signedJunk = signGrant({ p: 'pid' } as GrantPayload, key);
    expect(verifyGrant(signedJunk, 'pid', key, NOW)).toEqual({ ok: false, reason: 'Grant is malformed' });
  });
});

describe('PlaybackGrants', () => {
  const config = (grantSecret?: string) => ({ playback: { grantSecret, grantSeconds: 600 } }) as PlatformConfig;

  it('issues grants that live grantSeconds', () => {
    const grants = new PlaybackGrants(config('shared-secret'));
    const now = NOW * 1000;
    const grant = grants.issue({ p: 'pid', a: 'asset' }, now);
    expect(grants.check(grant, 'pid', now)).toEqual({ ok: true, grant: { p: 'pid', a: 'asset', e: NOW + 600 } });
    expect(grants.check(grant, 'pid', now + 599_000).ok).toBe(true);
    expect(grants.check(grant, 'pid', now + 600_000).ok).toBe(false);
  });

  it('with PLAYBACK_GRANT_SECRET, every replica reads the others grants', () => {
    const grant = new PlaybackGrants(config('shared-secret')).issue({ p: 'pid', a: 'asset' });
    expect(new PlaybackGrants(config('shared-secret')).check(grant, 'pid').ok).toBe(true);
    expect(new PlaybackGrants(config('another-secret')).check(grant, 'pid').ok).toBe(false);
  });
});
