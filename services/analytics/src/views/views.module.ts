import { DynamicModule, FactoryProvider, Module } from '@nestjs/common';
import { ANALYTICS_STORE, AnalyticsStore } from '../clickhouse/analytics-store.port';
import { ClickHouseViewRepository } from './clickhouse-view-repository';
import { PLAYBACK_ID_RESOLVER, PlaybackIdResolver, UnresolvedPlaybackIds } from './playback-id-resolver';
import { ViewBuilder } from './view-builder';
import { VIEW_REPOSITORY, ViewRepository } from './view-repository';
import { ViewSweeper } from './view-sweeper';
import { ViewsConsumer } from './views.consumer';
import { DEFAULT_VIEWS_OPTIONS, VIEWS_OPTIONS, ViewsOptions } from './views.options';

export interface ViewsModuleOptions extends Partial<ViewsOptions> {
  /** How playback ids become asset/live stream ids (the app's gRPC client); none: left unresolved. */
  playbackIdResolver?: Omit<FactoryProvider<PlaybackIdResolver>, 'provide'>;
}

/**
 * The view builder: consumes BEACONS_STREAM (needs EVENT_BUS and ANALYTICS_STORE from the app,
 * the store migrated with VIEW_MIGRATIONS), sweeps silent views, exports the ViewBuilder and the
 * ViewRepository.
 */
@Module({})
export class ViewsModule {
  static forRoot(options: ViewsModuleOptions = {}): DynamicModule {
    const { playbackIdResolver, ...settings } = options;
    return {
      module: ViewsModule,
      providers: [
        { provide: VIEWS_OPTIONS, useValue: { ...DEFAULT_VIEWS_OPTIONS, ...settings } },
        { provide: VIEW_REPOSITORY, inject: [ANALYTICS_STORE], useFactory: (store: AnalyticsStore) => new ClickHouseViewRepository(store) },
        playbackIdResolver ? { provide: PLAYBACK_ID_RESOLVER, ...playbackIdResolver } : { provide: PLAYBACK_ID_RESOLVER, useClass: UnresolvedPlaybackIds },
        {
          provide: ViewBuilder,
          inject: [VIEW_REPOSITORY, PLAYBACK_ID_RESOLVER, VIEWS_OPTIONS],
          useFactory: (repository: ViewRepository, resolver: PlaybackIdResolver, settings: ViewsOptions) => new ViewBuilder(repository, resolver, settings),
        },
        ViewsConsumer,
        ViewSweeper,
      ],
      exports: [ViewBuilder, VIEW_REPOSITORY],
    };
  }
}
