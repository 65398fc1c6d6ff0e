import { assets } from '@platform/proto';
import { serviceClientProvider } from '../grpc-clients/service-client';

/** The assets service's AssetsService, used by the asset routes and the playback-id lookup. */
export const ASSETS_CLIENT = Symbol('AssetsServiceClient');

export const assetsClientProvider = serviceClientProvider(ASSETS_CLIENT, 'assets', assets.ASSETS_SERVICE_NAME);
