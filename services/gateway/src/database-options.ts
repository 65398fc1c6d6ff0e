import { ServiceDatabaseOptions } from '@platform/database';
import { AccessTokenEntity } from './access-tokens/access-token.entity';
import { CreateAccessTokens1732300000100 } from './migrations/1732300000100-create-access-tokens';
import { SCHEMA } from './schema';

/** The gateway's own database: used by the app and by the token CLI, so both migrate alike. */
export const gatewayDatabase: ServiceDatabaseOptions = {
  schema: SCHEMA,
  entities: [AccessTokenEntity],
  migrations: [CreateAccessTokens1732300000100],
};
