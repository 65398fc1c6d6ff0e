import { live } from '@platform/proto';
import { serviceClientProvider } from '../grpc-clients/service-client';

/** The live service's LiveStreamsService. */
export const LIVE_STREAMS_CLIENT = Symbol('LiveStreamsServiceClient');

export const liveStreamsClientProvider = serviceClientProvider(LIVE_STREAMS_CLIENT, 'live', live.LIVE_STREAMS_SERVICE_NAME);
