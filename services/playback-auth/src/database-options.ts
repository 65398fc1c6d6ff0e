import { ServiceDatabaseOptions } from '@platform/database';
import { outboxMigrations } from '@platform/events';
import { CreateSigningKeys1732200000100 } from './migrations/1732200000100-create-signing-keys';
import { CreatePlaybackRestrictions1732200000200 } from './migrations/1732200000200-create-playback-restrictions';
import { AddUserAgentRule1732200000300 } from './migrations/1732200000300-add-user-agent-rule';
import { PlaybackRestrictionEntity } from './playback-restrictions/playback-restriction.entity';
import { SCHEMA } from './schema';
import { SigningKeyEntity } from './signing-keys/signing-key.entity';

export const playbackAuthDatabase: ServiceDatabaseOptions = {
  schema: SCHEMA,
  entities: [SigningKeyEntity, PlaybackRestrictionEntity],
  migrations: [CreateSigningKeys1732200000100, CreatePlaybackRestrictions1732200000200, AddUserAgentRule1732200000300, ...outboxMigrations(SCHEMA)],
};
