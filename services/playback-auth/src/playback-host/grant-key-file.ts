import { secretKeyFromDataDir } from '@platform/config';

/**
 * The grant key kept under DATA_DIR when PLAYBACK_GRANT_SECRET is not set, so playback URLs
 * handed out before a restart keep working after it (`DATA_DIR/secrets/playback-grant.key`).
 */
export function grantKeyFromDataDir(dataDir: string): Buffer {
  return secretKeyFromDataDir(dataDir, 'playback-grant.key');
}
