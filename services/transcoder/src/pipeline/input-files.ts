import { Logger } from '@nestjs/common';
import { PlatformConfig } from '@platform/config';
import { assets } from '@platform/proto';
import { assetKeys, ObjectNotFoundError, ObjectStore } from '@platform/storage';
import { DownloadError } from '../ingest/download';
import { downloadInThread } from '../ingest/download-thread';
import { InputError } from './job-context';

/** Where the ingest phase keeps a downloaded input for the ladder phase (the worker removes it when the job ends). */
export const keptInputKey = (assetId: string): string => `${assetKeys.prefix(assetId)}transcoder/input`;

/**
 * The input file of an asset on local disk: its URL downloaded (through the outbound guard, bounded in
 * size, time and idle time, on a thread of its own) or a stored object (a direct upload's file, or the
 * copy the ingest phase kept for the ladder phase, which any worker may run).
 */
export class InputFiles {
  private readonly logger = new Logger('InputFiles');

  constructor(
    private readonly store: ObjectStore,
    private readonly config: PlatformConfig,
  ) {}

  /** Fetches the asset's input into `file`; returns the step's name for the timings. */
  async fetch(input: assets.AssetInput | undefined, file: string, signal: AbortSignal): Promise<string> {
    if (input?.object_key) {
      await this.fetchStored(input.object_key, file, 'The uploaded file is missing from storage.');
      return 'fetch uploaded file';
    }
    if (!input?.url) throw new InputError(['The asset has no input URL.']);
    await this.download(input.url, file, signal);
    return 'download';
  }

  /** The ladder phase's input: the kept copy when there is one (else the asset's own input again). */
  async fetchForLadder(keptKey: string | null, input: assets.AssetInput | undefined, file: string, signal: AbortSignal): Promise<string> {
    if (keptKey) {
      try {
        await this.store.getFile(keptKey, file);
        return 'fetch kept input';
      } catch (err) {
        if (!(err instanceof ObjectNotFoundError)) throw err;
        this.logger.warn(`${keptKey} is missing; fetching the asset's input again`);
      }
    }
    return this.fetch(input, file, signal);
  }

  /** Keeps a downloaded input for the ladder phase (a hard link on the filesystem store). */
  async keep(assetId: string, file: string): Promise<string> {
    const key = keptInputKey(assetId);
    await this.store.putFile(key, file, 'application/octet-stream');
    return key;
  }

  private async fetchStored(key: string, file: string, missing: string): Promise<void> {
    try {
      await this.store.getFile(key, file);
    } catch (err) {
      if (err instanceof ObjectNotFoundError) throw new InputError([missing]);
      throw err;
    }
  }

  private async download(url: string, file: string, signal: AbortSignal): Promise<void> {
    const { inputMaxBytes, inputDownloadTimeoutSeconds, inputDownloadIdleSeconds } = this.config.media;
    try {
      await downloadInThread(url, file, {
        maxBytes: inputMaxBytes,
        timeoutSeconds: inputDownloadTimeoutSeconds,
        idleSeconds: inputDownloadIdleSeconds,
        outboundAllow: this.config.outboundAllow,
        signal,
      });
    } catch (err) {
      if (err instanceof DownloadError) throw new InputError([err.message]);
      throw err;
    }
  }
}
