import { All, Controller, Get, Inject, Options, Param, Put, Req, Res, UseFilters } from '@nestjs/common';
import type { Request, Response } from 'express';
import { UploadRepository } from '../uploads/upload.repository';
import { ChunkReceiver } from './chunk-receiver.service';
import { ContentRangeError, parseContentRange, PutRange, rangeHeader } from './content-range';
import { corsHeaders, preflightHeaders } from './cors';
import { UploadHostError } from './upload-host-error';
import { UploadHostErrorFilter } from './upload-host-error.filter';

const UPLOAD_ID = /^[A-Za-z0-9]{1,255}$/;

/**
 * The upload host on UPLOAD_PORT: the `url` of a direct upload. Takes the file in one PUT or in
 * chunks (308 with `Range` until the last one, then 200), with the upload's CORS.
 */
@Controller()
@UseFilters(UploadHostErrorFilter)
export class UploadHostController {
  constructor(
    @Inject(ChunkReceiver) private readonly receiver: ChunkReceiver,
    @Inject(UploadRepository) private readonly uploads: UploadRepository,
  ) {}

  @Get('healthz')
  health(): { status: string } {
    return { status: 'ok' };
  }

  @Put('upload/:id')
  async put(@Param('id') id: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    if (!UPLOAD_ID.test(id)) throw UploadHostError.notFound();
    const upload = await this.uploads.findById(id);
    res.set(corsHeaders(upload?.corsOrigin ?? null, req.get('origin')));
    const outcome = await this.receiver.put(
      {
        uploadId: id,
        signature: typeof req.query.signature === 'string' ? req.query.signature : undefined,
        range: contentRangeOf(req),
        contentLength: contentLengthOf(req),
        body: req,
      },
      upload,
    );
    res.set('cache-control', 'no-store');
    if (outcome.status === 308) {
      const range = rangeHeader(outcome.received);
      if (range) res.set('range', range);
      res.status(308).end();
      return;
    }
    const done = outcome.upload;
    res
      .status(200)
      .json({ data: { id: done.id, status: done.status, ...(done.status === 'asset_created' && done.assetId ? { asset_id: done.assetId } : {}) } });
  }

  @Options('upload/:id')
  async preflight(@Param('id') id: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const upload = UPLOAD_ID.test(id) ? await this.uploads.findById(id) : null;
    res
      .status(204)
      .set(preflightHeaders(upload?.corsOrigin ?? null, req.get('origin'), req.get('access-control-request-headers')))
      .end();
  }

  @All('{*path}')
  unknown(@Req() req: Request): never {
    throw new UploadHostError(404, 'not_found', `Not an upload URL: ${req.method} ${req.path}`);
  }
}

function contentRangeOf(req: Request): PutRange {
  try {
    return parseContentRange(req.get('content-range'));
  } catch (err) {
    if (err instanceof ContentRangeError) throw UploadHostError.invalid(err.message);
    throw err;
  }
}

function contentLengthOf(req: Request): number | undefined {
  const value = req.get('content-length');
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined;
}
