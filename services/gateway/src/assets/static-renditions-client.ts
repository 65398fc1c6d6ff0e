import { assets } from '@platform/proto';
import { serviceClientProvider } from '../grpc-clients/service-client';

/** The assets service's StaticRenditionsService: mp4-support, master-access and static-renditions routes. */
export const STATIC_RENDITIONS_CLIENT = Symbol('StaticRenditionsServiceClient');

export const staticRenditionsClientProvider = serviceClientProvider(STATIC_RENDITIONS_CLIENT, 'assets', assets.STATIC_RENDITIONS_SERVICE_NAME);
