import { Logger } from '@nestjs/common';
import { PlatformConfig } from '@platform/config';
import { assets } from '@platform/proto';
import { assetKeys, ObjectNotFoundError, ObjectStore } from '@platform/storage';
import { DownloadError } from '../ingest/download';
import { MediaToolkit } from '../media/media-tools';
import { ClipMaker, ClipRun } from './clip-maker';
import { downloadInThread } from '../ingest/download-thread';
import { InputError } from './job-context';

/** What the transcoder keeps of an asset between its phases; the worker removes it all when the job ends. */
export const keptFilesPrefix = (assetId: string): string => `${assetKeys.prefix(assetId)}transcoder/`;
/** Where the ingest phase keeps a downloaded input for the ladder phase. */
export const keptInputKey = (assetId: string): string => `${keptFilesPrefix(assetId)}input`;
/** Where the ingest phase keeps the checked watermark images (the first, second, … of the asset) for the ladder phase. */
export const keptOverlayKey = (assetId: string, n: number): string => `${keptFilesPrefix(assetId)}overlay-${n}`;
/** A watermark image is at most 4096x4096: no honest PNG, JPEG or WebP of that size comes near this. */
export const OVERLAY_MAX_BYTES = 64 * 1024 * 1024;

/** What cutting a clip needs besides the store: the job's scratch folder, signal and child pids, and the media tools. */
export interface InputRun extends ClipRun {
  toolkit: MediaToolkit;
}

/**
 * The input file of an asset on local disk: its URL downloaded (through the outbound guard, bounded in
 * size, time and idle time, on a thread of its own), a stored object (a direct upload's file, or the
 * copy the ingest phase kept for the ladder phase, which any worker may run), or a clip cut from its
 * source asset's stored media (`ClipMaker`).
 */
export class InputFiles {
  private readonly logger = new Logger('InputFiles');
  private readonly clips: ClipMaker;

  constructor(
    private readonly store: ObjectStore,
    private readonly config: PlatformConfig,
  ) {
    this.clips = new ClipMaker(store);
  }

  /** Fetches (or, for a clip, cuts) the asset's input into `file`; returns the step's name for the timings. */
  async fetchInput(spec: assets.IngestSpec, file: string, run: InputRun): Promise<string> {
    if (!spec.clip) return this.fetch(spec.input[0], file, run.signal);
    await this.clips.make(spec.clip, run.toolkit, file, run);
    return 'cut clip';
  }

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
  async fetchForLadder(keptKey: string | null, spec: assets.IngestSpec, file: string, run: InputRun): Promise<string> {
    if (keptKey) {
      try {
        await this.store.getFile(keptKey, file);
        return 'fetch kept input';
      } catch (err) {
        if (!(err instanceof ObjectNotFoundError)) throw err;
        this.logger.warn(`${keptKey} is missing; fetching the asset's input again`);
      }
    }
    return this.fetchInput(spec, file, run);
  }

  /** Downloads a watermark image (through the same guard, at most OVERLAY_MAX_BYTES). */
  async fetchOverlay(input: assets.AssetInput, file: string, signal: AbortSignal): Promise<void> {
    if (!input.url) throw new InputError(['The watermark input has no URL.']);
    await this.download(input.url, file, signal, { maxBytes: Math.min(OVERLAY_MAX_BYTES, this.config.media.inputMaxBytes), what: 'the watermark image' });
  }

  /** Watermark image `n` the ingest phase kept; false when there is none (then it is downloaded again). */
  async fetchKeptOverlay(assetId: string, n: number, file: string): Promise<boolean> {
    try {
      await this.store.getFile(keptOverlayKey(assetId, n), file);
      return true;
    } catch (err) {
      if (err instanceof ObjectNotFoundError) return false;
      throw err;
    }
  }

  async keepOverlay(assetId: string, n: number, file: string): Promise<void> {
    await this.store.putFile(keptOverlayKey(assetId, n), file, 'application/octet-stream');
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

  private async download(url: string, file: string, signal: AbortSignal, limits: { maxBytes?: number; what?: string } = {}): Promise<void> {
    const { inputMaxBytes, inputDownloadTimeoutSeconds, inputDownloadIdleSeconds } = this.config.media;
    try {
      await downloadInThread(url, file, {
        maxBytes: limits.maxBytes ?? inputMaxBytes,
        timeoutSeconds: inputDownloadTimeoutSeconds,
        idleSeconds: inputDownloadIdleSeconds,
        outboundAllow: this.config.outboundAllow,
        signal,
      });
    } catch (err) {
      if (err instanceof DownloadError) throw new InputError([limits.what ? `Unable to download ${limits.what}: ${err.reason}` : err.message]);
      throw err;
    }
  }
}
