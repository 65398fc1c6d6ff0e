import { playbackAuth } from '@platform/proto';
import { unixSecondsString } from '../wire/wire';
import { CreatedSigningKeyBody, SigningKeyBody } from './signing-keys.schemas';

export function toSigningKey(key: playbackAuth.SigningKey): SigningKeyBody {
  return { id: key.id, created_at: unixSecondsString(key.created_at) };
}

export function toCreatedSigningKey(key: playbackAuth.SigningKey): CreatedSigningKeyBody {
  if (!key.private_key) throw new Error(`CreateSigningKey answered without a private key for ${key.id}`);
  return { ...toSigningKey(key), private_key: key.private_key };
}
