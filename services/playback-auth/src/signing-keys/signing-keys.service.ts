import { generateKeyPair } from 'node:crypto';
import { promisify } from 'node:util';
import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '@platform/errors';
import { toSigningKey } from '@platform/api-shapes';
import { UnitOfWork } from '@platform/events';
import { newId } from '@platform/ids';
import { common, playbackAuth } from '@platform/proto';
import { SignedTokenCheck, verifySignedToken } from './signed-token';
import { SigningKeyRepository } from './signing-key.repository';
import { toSigningKeyMessage } from './signing-key.mapper';

const generateKeyPairAsync = promisify(generateKeyPair);

const DEFAULT_LIMIT = 25;

export const SIGNING_KEY_EVENTS = {
  created: 'system.signing_key.created',
  deleted: 'system.signing_key.deleted',
} as const;

/**
 * Signing keys (spec 2.4, 4.1): 2048-bit RSA pairs. The caller gets the private half once,
 * as Mux gives it (base64 of a PKCS#1 PEM); only the public half is kept, to verify
 * playback tokens.
 */
@Injectable()
export class SigningKeysService {
  constructor(
    @Inject(SigningKeyRepository) private readonly keys: SigningKeyRepository,
    @Inject(UnitOfWork) private readonly unitOfWork: UnitOfWork,
  ) {}

  async create(): Promise<playbackAuth.SigningKey> {
    // generated before the transaction opens: key generation takes a while and must not hold a connection
    const { publicKey, privateKey } = await generateKeyPairAsync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
    });
    const key = { id: newId(), publicKey, createdAt: new Date(), deletedAt: null };
    await this.unitOfWork.run(async (manager, emit) => {
      await this.keys.insert(manager, key);
      emit(SIGNING_KEY_EVENTS.created, toSigningKey(toSigningKeyMessage(key)));
    });
    return toSigningKeyMessage(key, Buffer.from(privateKey, 'utf8').toString('base64'));
  }

  async get(id: string): Promise<playbackAuth.SigningKey> {
    const key = await this.keys.findActive(id);
    if (!key) throw DomainError.notFound('Signing key');
    return toSigningKeyMessage(key);
  }

  async list(request: common.PageRequest): Promise<playbackAuth.SigningKeyList> {
    const limit = request.limit > 0 ? request.limit : DEFAULT_LIMIT;
    const page = request.page > 0 ? request.page : 1;
    const keys = await this.keys.listActive(limit, (page - 1) * limit);
    return { items: keys.map((key) => toSigningKeyMessage(key)) };
  }

  /** Permanent: the key never signs (verifies) again and its id is never found again. */
  async delete(id: string): Promise<void> {
    await this.unitOfWork.run(async (manager, emit) => {
      const key = await this.keys.softDelete(manager, id, new Date());
      if (!key) throw DomainError.notFound('Signing key');
      emit(SIGNING_KEY_EVENTS.deleted, toSigningKey(toSigningKeyMessage(key)));
    });
  }

  /** The SPKI PEM that verifies tokens signed with this key, or undefined when it does not exist or was deleted. */
  findActivePublicKey(id: string): Promise<string | undefined> {
    return this.keys.findActivePublicKey(id);
  }

  /** A token signed with an active key, for one of `audiences`, any subject (viewer counts). */
  verifyToken(token: string, audiences: readonly string[], now = new Date()): Promise<SignedTokenCheck> {
    if (audiences.length === 0) return Promise.resolve({ ok: false, reason: 'No audience to verify the token for' });
    return verifySignedToken(token, (kid) => this.findActivePublicKey(kid), { audience: audiences }, now);
  }
}
