import { platformMetrics } from '@platform/metrics';
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { Readable } from 'node:stream';
import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import { UnitOfWork } from '@platform/events';
import { RESUMABLE_WRITER, ResumableWrite, ResumableWriter, uploadKeys } from '@platform/storage';
import { CLOCK, Clock } from '../clock';
import { UploadCompletion } from '../completion/upload-completion.service';
import { UploadEntity } from '../uploads/upload.entity';
import { UploadRepository } from '../uploads/upload.repository';
import { signatureMatches } from '../uploads/upload-url';
import { BodyLengthError, bodySlice } from './body-slice';
import { PutRange, rangeHeader } from './content-range';
import { UploadHostError } from './upload-host-error';

/** What a PUT ends in: 308 (more bytes wanted, `received` held) or 200 (the file is in). */
export type PutOutcome = { status: 308; received: number } | { status: 200; upload: UploadEntity };

export interface PutRequest {
  uploadId: string;
  signature: string | undefined;
  range: PutRange;
  /** Content-Length, when the client sent one. */
  contentLength?: number;
  body: AsyncIterable<Buffer | string>;
}

/**
 * How long a request may hold an upload without renewing; renewed every second while the bytes
 * flow. Short, so the claim of a request whose process died (kill -9, a crash mid-chunk) lapses
 * within UpChunk's retries of the 503 a second writer gets meanwhile.
 */
export const CLAIM_SECONDS = 5;
const CLAIM_RENEW_MS = 1000;

/**
 * Claims are `<holder><uuid>`: the holder names this host (a pod, or the machine of the embedded
 * platform), which runs one upload host. At start the host drops the claims its previous
 * process left, so a request cut by a crash does not lock its upload until the claim lapses.
 */
export const claimHolder = (): string => `${os.hostname()}/`;

/**
 * The upload URL's PUTs: one whole file, or chunks with Content-Range as resumable uploads to
 * object stores take them (UpChunk). One request writes an upload at a time (a claim in the
 * database, so this holds across replicas); bytes stream to the store and are committed only
 * when the request carried exactly what it said, so a broken request is simply sent again.
 */
@Injectable()
export class ChunkReceiver implements OnApplicationBootstrap {
  private readonly uploadBytes = platformMetrics.uploadBytes();
  constructor(
    @Inject(UploadRepository) private readonly uploads: UploadRepository,
    @Inject(UnitOfWork) private readonly unitOfWork: UnitOfWork,
    @Inject(RESUMABLE_WRITER) private readonly writer: ResumableWriter,
    @Inject(UploadCompletion) private readonly completion: UploadCompletion,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const released = await this.uploads.releaseClaimsOf(claimHolder());
    if (released > 0) new Logger('ChunkReceiver').warn(`released ${released} upload claim(s) a previous process of this host left behind`);
  }

  /** The upload if this URL may still be used; throws the refusal otherwise. `known` saves the read when the caller has it. */
  async authorize(uploadId: string, signature: string | undefined, known?: UploadEntity | null): Promise<UploadEntity> {
    const upload = known !== undefined ? known : await this.uploads.findById(uploadId);
    if (!upload) throw UploadHostError.notFound();
    if (!signatureMatches(upload.signature, signature)) throw UploadHostError.forbidden('The upload URL’s signature is missing or wrong');
    return upload;
  }

  /** One PUT; `known` is the upload as the caller already read it (undefined: read it here). */
  async put(request: PutRequest, known?: UploadEntity | null): Promise<PutOutcome> {
    const upload = await this.authorize(request.uploadId, request.signature, known);
    const { range } = request;
    const total = range.kind === 'whole' ? request.contentLength : range.total;
    const maxBytes = this.config.media.inputMaxBytes;
    if (total !== undefined && total > maxBytes) throw UploadHostError.tooLarge(maxBytes);
    if (total !== undefined && upload.totalBytes !== null && total !== upload.totalBytes && range.kind !== 'whole') {
      throw UploadHostError.invalid(`The file's size changed: ${total} bytes, where earlier requests said ${upload.totalBytes}`);
    }

    const done = this.finished(upload, range);
    if (done) return done;
    this.refuseEnded(upload);
    if (range.kind === 'query') return { status: 308, received: upload.write?.size ?? 0 };

    const token = `${claimHolder()}${randomUUID()}`;
    const claimed = await this.uploads.claim(upload.id, token, this.clock.now(), this.claimUntil());
    if (!claimed) {
      const now = await this.uploads.findById(upload.id);
      if (now) this.refuseEnded(now);
      const done = now ? this.finished(now, range) : undefined;
      if (done) return done;
      throw UploadHostError.busy(
        'Another request is writing this upload; send this one again when it is done',
        this.secondsUntilLapse(now?.claimUntil ?? null),
      );
    }
    return this.write(claimed, token, range, request);
  }

  /** Bytes of a claimed upload: appended, then committed only if the request was whole. */
  private async write(upload: UploadEntity, token: string, range: PutRange, request: PutRequest): Promise<PutOutcome> {
    const renew = setInterval(() => void this.uploads.renewClaim(upload.id, token, this.claimUntil()).catch(() => undefined), CLAIM_RENEW_MS);
    try {
      let base = upload.write;
      let start = 0;
      let expected = request.contentLength;
      if (range.kind === 'chunk') {
        const held = base?.size ?? 0;
        if (range.start > held) {
          throw UploadHostError.conflict(
            `This chunk starts at byte ${range.start}, but the upload holds ${held} bytes: send from byte ${held}`,
            rangeHeaders(held),
          );
        }
        start = range.start;
        expected = range.end - range.start + 1;
      } else if (base && base.size > 0) {
        // A whole file again (a retry of a single PUT): it replaces what was there.
        await this.writer.discard(base);
        base = null;
      }
      base ??= await this.writer.begin(uploadKeys.source(upload.id));
      const skip = (base.size ?? 0) - start;
      const written = await this.writer.append(base, Readable.from(bodySlice(request.body, skip, expected, this.config.media.inputMaxBytes)));
      const total = range.kind === 'whole' ? written.size : range.total;
      const complete = total !== undefined && written.size === total;
      const committed = await this.commit(upload.id, token, written, total ?? null, complete);
      this.uploadBytes.inc({ service: 'uploads' }, Math.max(0, written.size - (base.size ?? 0)));
      if (!complete) return { status: 308, received: written.size };
      return { status: 200, upload: await this.completion.complete(committed) };
    } catch (err) {
      await this.uploads.releaseClaim(upload.id, token).catch(() => undefined);
      if (err instanceof BodyLengthError) throw UploadHostError.invalid(err.message);
      throw err;
    } finally {
      clearInterval(renew);
    }
  }

  /** Records the new bytes if the claim still holds and the upload is still waiting. */
  private async commit(id: string, token: string, write: ResumableWrite, total: number | null, complete: boolean): Promise<UploadEntity> {
    const now = this.clock.now();
    const outcome = await this.unitOfWork.run(async (manager) => {
      const upload = await this.uploads.lockById(manager, id);
      if (!upload || upload.status !== 'waiting' || upload.claimToken !== token) return { ended: upload };
      const updated = await this.uploads.update(manager, id, {
        write,
        totalBytes: total,
        claimToken: null,
        claimUntil: null,
        ...(complete ? { completedAt: now } : {}),
        updatedAt: now,
      });
      return { updated: updated! };
    });
    if (outcome.updated) return outcome.updated;
    // Cancelled or timed out while the bytes flowed: they make no asset.
    await this.writer.discard(write).catch(() => undefined);
    if (outcome.ended) this.refuseEnded(outcome.ended);
    throw UploadHostError.conflict('The upload changed while this request was writing it; send it again');
  }

  /** 200 for a request that the finished file already answers (a final chunk sent again, a status query). */
  private finished(upload: UploadEntity, range: PutRange): PutOutcome | undefined {
    if (!upload.completedAt || (upload.status !== 'waiting' && upload.status !== 'asset_created' && upload.status !== 'errored')) return undefined;
    const size = upload.write?.size ?? 0;
    const endsTheFile = range.kind === 'query' || (range.kind === 'chunk' && range.end === size - 1);
    return endsTheFile ? { status: 200, upload } : undefined;
  }

  /** A URL that can take no more bytes: cancelled, timed out (or past its time), errored, or already complete. */
  private refuseEnded(upload: UploadEntity): void {
    const reasons: Record<string, string> = {
      cancelled: 'The upload was cancelled',
      timed_out: 'The upload URL has expired',
      errored: 'The upload has errored',
      asset_created: 'The upload is complete',
    };
    if (upload.status !== 'waiting') throw UploadHostError.gone(reasons[upload.status] ?? `The upload is ${upload.status}`);
    if (upload.completedAt) throw UploadHostError.gone('The upload is complete');
    if (upload.expiresAt <= this.clock.now()) throw UploadHostError.gone('The upload URL has expired');
  }

  private claimUntil(): Date {
    return new Date(this.clock.now().getTime() + CLAIM_SECONDS * 1000);
  }

  /** Retry-After for a claimed upload: when the holder's claim lapses unless it renews it. */
  private secondsUntilLapse(claimUntil: Date | null): number {
    const left = claimUntil ? Math.ceil((claimUntil.getTime() - this.clock.now().getTime()) / 1000) : 1;
    return Math.min(CLAIM_SECONDS, Math.max(1, left));
  }
}

function rangeHeaders(received: number): Record<string, string> {
  const range = rangeHeader(received);
  return range ? { range } : {};
}
