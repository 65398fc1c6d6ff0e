import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SignJWT } from 'jose';
import { createPrivateKey } from 'node:crypto';
import { tamperedAt } from '@platform/testing';
import { playlistUris, resolveUri, settledAsset, streamUrl } from './support/assets';
import { sdk } from './support/context';
import { ffprobe, FileServer, makeClip, serveFiles } from './support/media';

jest.setTimeout(180_000);

describe('signed playback and playback restrictions (spec 2.7, 5)', () => {
  const mux = sdk();
  let dir: string;
  let files: FileServer;
  let signedId: string;
  let key: { id: string; private_key: string };

  const sign = (
    playbackId: string,
    options: { expiration?: string; type?: 'video' | 'thumbnail'; params?: Record<string, string>; keyId?: string; keySecret?: string } = {},
  ) =>
    mux.jwt.signPlaybackId(playbackId, {
      keyId: options.keyId ?? key.id,
      keySecret: options.keySecret ?? key.private_key,
      expiration: options.expiration ?? '1h',
      type: options.type ?? 'video',
      params: options.params,
    });

  const master = (token?: string, headers: Record<string, string> = {}) =>
    fetch(streamUrl(`${signedId}.m3u8${token === undefined ? '' : `?token=${token}`}`), { headers });

  async function expectForbidden(res: Response, reason: RegExp): Promise<void> {
    expect(res.status).toBe(403);
    const body = (await res.json()) as { error: { type: string; messages: string[] } };
    expect(body.error.messages.join(' ')).toMatch(reason);
  }

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-signed-'));
    await makeClip(dir, 'clip', { seconds: 4, width: 640, height: 360, fps: 25 });
    files = await serveFiles(dir);
    const created = await mux.system.signingKeys.create();
    key = { id: created.id, private_key: created.private_key! };
    const asset = await mux.video.assets.create({ inputs: [{ url: files.url('clip.mp4') }], playback_policies: ['signed'] });
    signedId = asset.playback_ids![0].id;
    expect((await settledAsset(mux, asset.id)).status).toBe('ready');
  });

  afterAll(async () => {
    await files?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('plays with a token from the SDK; children need no token of their own', async () => {
    const token = await sign(signedId);
    const masterUrl = streamUrl(`${signedId}.m3u8?token=${token}`);
    const res = await fetch(masterUrl);
    expect(res.status).toBe(200);
    const text = await res.text();
    const variantUri = playlistUris(text)[0];
    expect(variantUri).not.toContain(token);
    const variantUrl = resolveUri(masterUrl, variantUri);
    const variant = await fetch(variantUrl);
    expect(variant.status).toBe(200);
    const segment = await fetch(resolveUri(variantUrl, playlistUris(await variant.text())[0]));
    expect(segment.status).toBe(200);
    expect(segment.headers.get('content-type')).toBe('video/mp2t');
    const played = await ffprobe(masterUrl);
    expect(played.streams.find((s) => s.codec_type === 'video')?.codec_name).toBe('h264');
  });

  it('rejects a child URL whose grant was tampered with', async () => {
    const masterUrl = streamUrl(`${signedId}.m3u8?token=${await sign(signedId)}`);
    const variantUri = playlistUris(await (await fetch(masterUrl)).text())[0];
    const tampered = resolveUri(masterUrl, variantUri).replace(/grant=([^&]+)/, (_, g: string) => `grant=${tamperedAt(g, -2)}`);
    expect((await fetch(tampered)).status).toBe(403);
    const withoutGrant = resolveUri(masterUrl, variantUri).replace(/\?.*$/, '');
    expect((await fetch(withoutGrant)).status).toBe(403);
  });

  it('rejects missing, expired, wrong-audience, other-id and malformed tokens', async () => {
    await expectForbidden(await master(), /token/i);
    await expectForbidden(await master('not-a-jwt'), /token/i);
    const expired = await new SignJWT({ sub: signedId, aud: 'v', kid: key.id })
      .setProtectedHeader({ alg: 'RS256' })
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(createPrivateKey(Buffer.from(key.private_key, 'base64').toString()));
    await expectForbidden(await master(expired), /expired/i);
    await expectForbidden(await master(await sign(signedId, { type: 'thumbnail' })), /audience/i);
    await expectForbidden(await master(await sign('some-other-playback-id')), /playback/i);
  });

  it('accepts the key id in the JWT header, as older SDKs put it', async () => {
    const token = await new SignJWT({ sub: signedId, aud: 'v' })
      .setProtectedHeader({ alg: 'RS256', kid: key.id })
      .setExpirationTime('10m')
      .sign(createPrivateKey(Buffer.from(key.private_key, 'base64').toString()));
    expect((await master(token)).status).toBe(200);
  });

  it('rejects tokens of a deleted signing key and of an unknown one', async () => {
    const other = await mux.system.signingKeys.create();
    const token = await sign(signedId, { keyId: other.id, keySecret: other.private_key! });
    expect((await master(token)).status).toBe(200);
    await mux.system.signingKeys.delete(other.id);
    await expectForbidden(await master(token), /key/i);
    await expectForbidden(await master(await sign(signedId, { keyId: 'no-such-key' })), /key/i);
  });

  it('applies a playback restriction named in the token to the Referer', async () => {
    const restriction = await mux.video.playbackRestrictions.create({
      referrer: { allowed_domains: ['*.example.com'], allow_no_referrer: false },
      user_agent: { allow_no_user_agent: true, allow_high_risk_user_agent: true },
    });
    const token = await sign(signedId, { params: { playback_restriction_id: restriction.id } });
    expect((await master(token, { referer: 'https://www.example.com/watch' })).status).toBe(200);
    await expectForbidden(await master(token, { referer: 'https://evil.test/watch' }), /referr?er/i);
    await expectForbidden(await master(token), /referr?er/i);

    await mux.video.playbackRestrictions.updateReferrer(restriction.id, { allowed_domains: ['*.example.com'], allow_no_referrer: true });
    expect((await master(token)).status).toBe(200);
  });

  it('ignores tokens on public playback ids', async () => {
    const asset = await mux.video.assets.create({ inputs: [{ url: files.url('clip.mp4') }], playback_policies: ['public'] });
    await settledAsset(mux, asset.id);
    const res = await fetch(streamUrl(`${asset.playback_ids![0].id}.m3u8?token=garbage`));
    expect(res.status).toBe(200);
  });
});
