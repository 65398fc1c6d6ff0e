export * from './database.module';
export * from './embedded-postgres';
export * from './open-database';
