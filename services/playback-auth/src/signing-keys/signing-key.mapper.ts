import { unixSeconds } from '@platform/ids';
import { playbackAuth } from '@platform/proto';
import { SigningKeySummary } from './signing-key.entity';

export function toSigningKeyMessage(key: SigningKeySummary, privateKey?: string): playbackAuth.SigningKey {
  const message: playbackAuth.SigningKey = { id: key.id, created_at: Number(unixSeconds(key.createdAt)) };
  if (privateKey !== undefined) message.private_key = privateKey;
  return message;
}
