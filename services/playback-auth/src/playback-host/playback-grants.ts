import { randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import { GrantCheck, GrantPayload, signGrant, verifyGrant } from './grant';

/**
 * Issues and checks the grants on child URLs with PLAYBACK_GRANT_SECRET, or with a random
 * key of this process when none is set (grants then die with the process, and replicas
 * cannot read each other's).
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
    this.key = randomBytes(32);
    // production mode (Kafka) is where several replicas of this service may run
    if (config.kafka) {
      new Logger('PlaybackGrants').warn(
        'PLAYBACK_GRANT_SECRET is not set: child playlist and segment URLs are signed with a key of this process only; ' +
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
