import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { WebhookEnvironment } from './webhook-body';

/** The environment webhook bodies name: one row, written by the migration, read once. */
@Injectable()
export class EnvironmentRepository {
  private environment: Promise<WebhookEnvironment> | undefined;

  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  get(): Promise<WebhookEnvironment> {
    this.environment ??= this.load().catch((err: unknown) => {
      this.environment = undefined;
      throw err;
    });
    return this.environment;
  }

  private async load(): Promise<WebhookEnvironment> {
    const [row] = await this.dataSource.query<WebhookEnvironment[]>(`SELECT "name", "id" FROM "webhooks"."environment"`);
    if (!row) throw new Error('webhooks.environment has no row; have the migrations run?');
    return { name: row.name, id: row.id };
  }
}
