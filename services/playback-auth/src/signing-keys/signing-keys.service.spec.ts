import { createPrivateKey, createPublicKey, verify } from 'node:crypto';
import Mux from '@mux/mux-node';
import { DomainError, ErrorCode } from '@platform/errors';
import { unixSeconds } from '@platform/ids';
import { fakeUnitOfWork } from '@platform/testing';
import { SigningKeyRepository } from './signing-key.repository';
import { SigningKeysService } from './signing-keys.service';
import { InMemorySigningKeys } from '../testing/in-memory-signing-keys';

function setup() {
  const repository = new InMemorySigningKeys();
  const { unitOfWork, manager, events } = fakeUnitOfWork();
  const service = new SigningKeysService(repository as unknown as SigningKeyRepository, unitOfWork);
  return { service, repository, manager, events };
}

async function expectDomainError(promise: Promise<unknown>, code: ErrorCode, messages: string[]): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  expect((error as DomainError).code).toBe(code);
  expect((error as DomainError).messages).toEqual(messages);
}

describe('SigningKeysService', () => {
  describe('create', () => {
    it('returns the base64 of a PKCS#1 PEM of a 2048-bit RSA key whose public half is what is stored', async () => {
      const { service, repository, manager } = setup();
      const created = await service.create();

      const pem = Buffer.from(created.private_key!, 'base64').toString('utf8');
      expect(pem.startsWith('-----BEGIN RSA PRIVATE KEY-----\n')).toBe(true);
      expect(pem.trimEnd().endsWith('-----END RSA PRIVATE KEY-----')).toBe(true);
      const privateKey = createPrivateKey(pem);
      expect(privateKey.asymmetricKeyType).toBe('rsa');
      expect(privateKey.asymmetricKeyDetails?.modulusLength).toBe(2048);

      const stored = repository.rows.get(created.id)!;
      expect(Object.keys(stored).sort()).toEqual(['createdAt', 'deletedAt', 'id', 'publicKey']);
      expect(stored.publicKey.startsWith('-----BEGIN PUBLIC KEY-----\n')).toBe(true);
      expect(stored.publicKey).toBe(createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }));
      expect(stored.deletedAt).toBeNull();
      expect(JSON.stringify(stored)).not.toContain('PRIVATE');
      expect(repository.managers).toEqual([manager]);

      expect(created).toEqual({ id: stored.id, created_at: Number(unixSeconds(stored.createdAt)), private_key: created.private_key });
      expect(created.id).toMatch(/^[0-9A-Za-z]{32}$/);
      expect(Math.abs(created.created_at - Date.now() / 1000)).toBeLessThan(60);
    });

    it('gives a key the official SDK signs playback tokens with, verifiable with the stored public key', async () => {
      const { service, repository } = setup();
      const created = await service.create();
      const mux = new Mux({ tokenId: 'unused', tokenSecret: 'unused', baseURL: 'http://127.0.0.1:9' });

      const token = await mux.jwt.signPlaybackId('playback-id-1', { keyId: created.id, keySecret: created.private_key!, expiration: '1h' });

      const [header, payload, signature] = token.split('.');
      expect(JSON.parse(Buffer.from(header, 'base64url').toString())).toEqual({ alg: 'RS256', typ: 'JWT' });
      expect(JSON.parse(Buffer.from(payload, 'base64url').toString())).toMatchObject({ sub: 'playback-id-1', aud: 'v', kid: created.id });
      const publicKey = await service.findActivePublicKey(created.id);
      expect(publicKey).toBe(repository.rows.get(created.id)!.publicKey);
      expect(verify('RSA-SHA256', Buffer.from(`${header}.${payload}`), publicKey!, Buffer.from(signature, 'base64url'))).toBe(true);
    });

    it('emits system.signing_key.created with the id and created_at only, never the private key', async () => {
      const { service, repository, events } = setup();
      const created = await service.create();
      const stored = repository.rows.get(created.id)!;

      expect(events).toEqual([
        {
          type: 'system.signing_key.created',
          object: { type: 'signing_key', id: created.id },
          data: { id: created.id, created_at: unixSeconds(stored.createdAt) },
        },
      ]);
      const pemBody = Buffer.from(created.private_key!, 'base64').toString('utf8').split('\n')[1];
      expect(JSON.stringify(events)).not.toContain(pemBody);
      expect(JSON.stringify(events)).not.toContain(created.private_key!.slice(40, 80));
    });

    it('creates a different key pair every time', async () => {
      const { service, repository } = setup();
      const [a, b] = [await service.create(), await service.create()];
      expect(a.id).not.toBe(b.id);
      expect(a.private_key).not.toBe(b.private_key);
      expect(repository.rows.get(a.id)!.publicKey).not.toBe(repository.rows.get(b.id)!.publicKey);
    });
  });

  describe('get and list', () => {
    it('gets a key as id and created_at, without private_key', async () => {
      const { service } = setup();
      const created = await service.create();
      const got = await service.get(created.id);
      expect(got).toEqual({ id: created.id, created_at: created.created_at });
      expect(got).not.toHaveProperty('private_key');
    });

    it('answers NOT_FOUND for an unknown id', async () => {
      const { service } = setup();
      await expectDomainError(service.get('nope'), ErrorCode.NOT_FOUND, ['Signing key not found']);
    });

    it('lists newest first without private keys', async () => {
      const { service, repository } = setup();
      const ids = ['k1', 'k2', 'k3'];
      ids.forEach((id, i) => repository.rows.set(id, { id, publicKey: 'pem', createdAt: new Date(Date.UTC(2024, 0, 1 + i)), deletedAt: null }));
      const list = await service.list({ limit: 25, page: 1 });
      expect(list).toEqual({
        items: [
          { id: 'k3', created_at: Date.UTC(2024, 0, 3) / 1000 },
          { id: 'k2', created_at: Date.UTC(2024, 0, 2) / 1000 },
          { id: 'k1', created_at: Date.UTC(2024, 0, 1) / 1000 },
        ],
      });
      for (const item of list.items) expect(item).not.toHaveProperty('private_key');
    });

    it.each([
      [{ limit: 10, page: 1 }, 10, 0],
      [{ limit: 10, page: 3 }, 10, 20],
      [{ limit: 1, page: 2 }, 1, 1],
      [{ limit: 100, page: 5 }, 100, 400],
      [{ limit: 0, page: 0 }, 25, 0],
      [{ limit: 0, page: 2 }, 25, 25],
    ])('pages %j as limit %i offset %i', async (request, limit, offset) => {
      const { service, repository } = setup();
      const listActive = jest.spyOn(repository, 'listActive');
      await service.list(request);
      expect(listActive).toHaveBeenCalledWith(limit, offset);
    });

    it('returns an empty page past the end', async () => {
      const { service } = setup();
      await service.create();
      expect(await service.list({ limit: 1, page: 2 })).toEqual({ items: [] });
    });
  });

  describe('delete', () => {
    it('invalidates the key for good: get, delete and the public key lookup no longer find it', async () => {
      const { service, repository, events } = setup();
      const created = await service.create();
      const kept = await service.create();
      events.length = 0;

      await service.delete(created.id);

      expect(repository.rows.get(created.id)!.deletedAt).toBeInstanceOf(Date);
      await expectDomainError(service.get(created.id), ErrorCode.NOT_FOUND, ['Signing key not found']);
      await expectDomainError(service.delete(created.id), ErrorCode.NOT_FOUND, ['Signing key not found']);
      expect(await service.findActivePublicKey(created.id)).toBeUndefined();
      expect((await service.list({ limit: 25, page: 1 })).items.map((k) => k.id)).toEqual([kept.id]);
      expect(await service.findActivePublicKey(kept.id)).toBe(repository.rows.get(kept.id)!.publicKey);

      expect(events).toEqual([
        {
          type: 'system.signing_key.deleted',
          object: { type: 'signing_key', id: created.id },
          data: { id: created.id, created_at: String(created.created_at) },
        },
      ]);
    });

    it('answers NOT_FOUND for an unknown id and emits nothing', async () => {
      const { service, events } = setup();
      await expectDomainError(service.delete('nope'), ErrorCode.NOT_FOUND, ['Signing key not found']);
      expect(events).toEqual([]);
    });
  });
});
