import { Inject, Injectable, Logger } from '@nestjs/common';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import { GrantCheck, GrantPayload, signGrant, verifyGrant } from './grant';
import { grantKeyFromDataDir } from './grant-key-file';

/**
 * Issues and checks the grants on child URLs with PLAYBACK_GRANT_SECRET, or, when none is set,
 * with a random key generated once and kept in DATA_DIR (grants survive a restart; replicas on
 * other machines cannot read each other's).
 */
@Injectable()
export class PlaybackGrants {
  private readonly key: Buffer;
  readonly seconds: number;

  constructor(@Inject(PLATFORM_CONFIG) config: PlatformConfig) {
    this.seconds = config.playback.grantSeconds;
    if (config.playback.grantSecret) {
      this.key = Buffer.from(config.playback.grantSecret, 'utf8');
      return;
    }
    this.key = grantKeyFromDataDir(config.dataDir);
    // production mode (Kafka) is where several replicas of this service may run
    if (config.kafka) {
      new Logger('PlaybackGrants').warn(
        'PLAYBACK_GRANT_SECRET is not set: child playlist and segment URLs are signed with a key kept in DATA_DIR; ' +
          'set the same secret on every replica or players get 403 when a request lands on another one',
      );
    }
  }

  issue(access: Omit<GrantPayload, 'e'>, now = Date.now()): string {
    return signGrant({ ...access, e: Math.floor(now / 1000) + this.seconds }, this.key);
  }

  check(grant: string, playbackId: string, now = Date.now()): GrantCheck {
    return verifyGrant(grant, playbackId, this.key, Math.floor(now / 1000));
  }
}
