import { uploads } from '@platform/proto';
import { serviceClientProvider } from '../grpc-clients/service-client';

/** The uploads service's UploadsService. */
export const UPLOADS_CLIENT = Symbol('UploadsServiceClient');

export const uploadsClientProvider = serviceClientProvider(UPLOADS_CLIENT, 'uploads', uploads.UPLOADS_SERVICE_NAME);
