import { createPrivateKey, createSign, KeyObject } from 'node:crypto';
import { api, sdk } from './support/context';

function privateKeyOf(base64Pem: string): KeyObject {
  const pem = Buffer.from(base64Pem, 'base64').toString('utf8');
  expect(pem).toMatch(/^-----BEGIN (RSA )?PRIVATE KEY-----/);
  return createPrivateKey(pem);
}

describe('signing keys (spec 2.4, 4.1)', () => {
  const mux = sdk();

  it('creates a 2048-bit RSA key whose private half is shown once', async () => {
    const key = await mux.system.signingKeys.create();
    expect(key.id).toMatch(/^[0-9A-Za-z]{1,255}$/);
    expect(key.created_at).toMatch(/^\d{10}$/);
    expect(Math.abs(Number(key.created_at) - Date.now() / 1000)).toBeLessThan(120);
    const privateKey = privateKeyOf(key.private_key!);
    expect(privateKey.asymmetricKeyType).toBe('rsa');
    expect(privateKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
    // usable for RS256
    const signature = createSign('RSA-SHA256').update('payload').sign(privateKey);
    expect(signature).toHaveLength(256);

    const fetched = await mux.system.signingKeys.retrieve(key.id);
    expect(fetched).toEqual({ id: key.id, created_at: key.created_at });
  });

  it('signs playback tokens with the SDK helper', async () => {
    const key = await mux.system.signingKeys.create();
    const token = await mux.jwt.signPlaybackId('some-playback-id', { keyId: key.id, keySecret: key.private_key, expiration: '1h' });
    const [header, payload] = token
      .split('.')
      .slice(0, 2)
      .map((p) => JSON.parse(Buffer.from(p, 'base64url').toString()));
    expect(header.alg).toBe('RS256');
    expect(payload).toMatchObject({ sub: 'some-playback-id', aud: 'v', kid: key.id });
  });

  it('lists keys without private halves and pages to an empty page', async () => {
    const created = [await mux.system.signingKeys.create(), await mux.system.signingKeys.create()];
    const all = [];
    for await (const key of mux.system.signingKeys.list({ limit: 1 })) all.push(key);
    for (const c of created) expect(all).toContainEqual({ id: c.id, created_at: c.created_at });
    for (const k of all) expect(k).not.toHaveProperty('private_key');
    const farPage = await api('GET', '/system/v1/signing-keys?limit=100&page=100000');
    expect(farPage.status).toBe(200);
    expect(farPage.body).toEqual({ data: [] });
  });

  it('deletes a key for good', async () => {
    const key = await mux.system.signingKeys.create();
    const del = await api('DELETE', `/system/v1/signing-keys/${key.id}`);
    expect(del.status).toBe(204);
    expect(del.body).toBeUndefined();
    const get = await api('GET', `/system/v1/signing-keys/${key.id}`);
    expect(get.status).toBe(404);
    expect(get.body.error.type).toBe('not_found');
    expect(get.headers.get('x-should-retry')).toBe('false');
    const again = await api('DELETE', `/system/v1/signing-keys/${key.id}`);
    expect(again.status).toBe(404);
    const listed = await api('GET', '/system/v1/signing-keys?limit=100');
    expect(listed.body.data.map((k: { id: string }) => k.id)).not.toContain(key.id);
  });

  it('serves the deprecated /video/v1/signing-keys routes with identical shapes', async () => {
    const created = await api('POST', '/video/v1/signing-keys');
    expect(created.status).toBe(201);
    expect(Object.keys(created.body.data).sort()).toEqual(['created_at', 'id', 'private_key']);
    const viaSystem = await mux.system.signingKeys.retrieve(created.body.data.id);
    expect(viaSystem.id).toBe(created.body.data.id);
    const got = await api('GET', `/video/v1/signing-keys/${created.body.data.id}`);
    expect(got.body).toEqual({ data: { id: created.body.data.id, created_at: created.body.data.created_at } });
    const list = await api('GET', '/video/v1/signing-keys');
    expect(list.status).toBe(200);
    expect(Array.isArray(list.body.data)).toBe(true);
    expect((await api('DELETE', `/video/v1/signing-keys/${created.body.data.id}`)).status).toBe(204);
    expect((await api('GET', `/system/v1/signing-keys/${created.body.data.id}`)).status).toBe(404);
  });
});
