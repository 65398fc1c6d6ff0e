import path from 'node:path';
import { DynamicModule, Module, Provider } from '@nestjs/common';
import { PLATFORM_CONFIG, PlatformConfig, secretKeyFromDataDir } from '@platform/config';
import { DEFAULT_PAGE_SIZE } from './views-csv-writer';
import { ExportUrlSigner, exportUrlKey } from './export-url-signer';
import { ViewExportScheduler } from './view-export-scheduler';
import { DEFAULT_SETTLE_MS, VIEW_EXPORTS_OPTIONS, ViewExportsOptions } from './view-exports.options';
import { ViewExportsService } from './view-exports.service';

export interface ViewExportsModuleOptions extends Partial<Pick<ViewExportsOptions, 'settleMs' | 'pageSize'>> {
  /** Run the export scheduler in this process (default true); false for tests that call exportNow. */
  scheduler?: boolean;
}

/** The key file under DATA_DIR/secrets when EXPORT_URL_SECRET is not set. */
export const EXPORT_URL_KEY_FILE = 'export-url.key';

/** The options the config and the module's own settings give. */
export function viewExportsOptionsOf(config: PlatformConfig, options: ViewExportsModuleOptions = {}): ViewExportsOptions {
  return {
    baseUrl: config.collectorBaseUrl,
    urlSeconds: config.viewExports.urlSeconds,
    retentionDays: config.viewExports.retentionDays,
    checkMs: config.viewExports.checkMs,
    includeToday: config.viewExports.includeToday,
    settleMs: options.settleMs ?? DEFAULT_SETTLE_MS,
    pageSize: options.pageSize ?? DEFAULT_PAGE_SIZE,
    workDir: path.join(config.dataDir, 'tmp', 'view-exports'),
  };
}

/**
 * Daily view exports: exports ViewExportsService (the gRPC ListViewExports handler's
 * `listExportDays()`, the download handler's `exportDownloads(service)`) and runs the scheduler.
 * Needs PLATFORM_CONFIG, ANALYTICS_STORE (AnalyticsStoreModule, with the views table) and
 * OBJECT_STORE (StorageModule) from the app.
 */
@Module({})
export class ViewExportsModule {
  static forRoot(options: ViewExportsModuleOptions = {}): DynamicModule {
    const providers: Provider[] = [
      { provide: VIEW_EXPORTS_OPTIONS, inject: [PLATFORM_CONFIG], useFactory: (config: PlatformConfig) => viewExportsOptionsOf(config, options) },
      {
        provide: ExportUrlSigner,
        inject: [PLATFORM_CONFIG, VIEW_EXPORTS_OPTIONS],
        useFactory: (config: PlatformConfig, settings: ViewExportsOptions) => {
          const key = exportUrlKey(config.viewExports.urlSecret, () => secretKeyFromDataDir(config.dataDir, EXPORT_URL_KEY_FILE));
          return new ExportUrlSigner(key, settings.baseUrl, settings.urlSeconds);
        },
      },
      ViewExportsService,
    ];
    if (options.scheduler !== false) providers.push(ViewExportScheduler);
    return { module: ViewExportsModule, providers, exports: [ViewExportsService] };
  }
}
