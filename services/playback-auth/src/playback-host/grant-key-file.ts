import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const KEY_BYTES = 32;

/**
 * The grant key kept under DATA_DIR when PLAYBACK_GRANT_SECRET is not set, so playback URLs
 * handed out before a restart keep working after it. Created once (exclusive create, mode
 * 0600); a process that loses the race to create it reads the winner's.
 */
export function grantKeyFromDataDir(dataDir: string): Buffer {
  const file = path.join(dataDir, 'secrets', 'playback-grant.key');
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
