import path from 'node:path';
import { PlatformConfig } from '@platform/config';
import { AnalyticsStore } from './analytics-store.port';
import { ChdbStore } from './chdb-store';
import { ClickHouseHttpStore, parseClickHouseUrl } from './clickhouse-http-store';

/** Where embedded chDB keeps its data: one directory under DATA_DIR. */
export function chdbDataDir(config: Pick<PlatformConfig, 'dataDir'>): string {
  return path.join(config.dataDir, 'clickhouse');
}

/**
 * The process's analytics store as the config says: a ClickHouse server when CLICKHOUSE_URL is set
 * (its path names the database, default `video_platform`, created if missing), otherwise embedded
 * chDB under DATA_DIR/clickhouse (one session per process and path, shared by every caller).
 */
export async function createAnalyticsStore(config: Pick<PlatformConfig, 'dataDir' | 'clickhouseUrl'>): Promise<AnalyticsStore> {
  if (config.clickhouseUrl) return ClickHouseHttpStore.connect(parseClickHouseUrl(config.clickhouseUrl));
  return ChdbStore.openAt(chdbDataDir(config));
}
