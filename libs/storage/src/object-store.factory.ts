import path from 'node:path';
import { PlatformConfig } from '@platform/config';
import { FsObjectStore } from './fs-object-store';
import { ObjectStore } from './object-store.port';
import { ResumableWriter } from './resumable-write.port';

/** S3 (through the `minio` client) when S3_ENDPOINT is set, otherwise files under `${dataDir}/objects`. */
export function createObjectStore(config: PlatformConfig): ObjectStore & ResumableWriter {
  if (config.s3) {
    // Loaded only in production mode, like the Kafka client.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { MinioObjectStore } = require('./minio-object-store') as typeof import('./minio-object-store');
    return new MinioObjectStore(config.s3);
  }
  return new FsObjectStore(path.join(config.dataDir, 'objects'));
}
