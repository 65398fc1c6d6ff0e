import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const KEY_BYTES = 32;

/**
 * A random 32-byte key kept in `DATA_DIR/secrets/<fileName>`, for a signing secret whose variable is
 * not set, so URLs handed out before a restart keep working after it. Created once (exclusive
 * create, mode 0600); a process that loses the race to create it reads the winner's.
 */
export function secretKeyFromDataDir(dataDir: string, fileName: string): Buffer {
  const file = path.join(dataDir, 'secrets', fileName);
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    fs.writeFileSync(file, randomBytes(KEY_BYTES).toString('base64'), { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length !== KEY_BYTES) throw new Error(`${file} does not hold a ${KEY_BYTES}-byte base64 key; delete it to make a new one`);
  return key;
}
