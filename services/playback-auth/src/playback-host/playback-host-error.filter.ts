import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { PlaybackError } from './playback-error';
import { CORS_HEADERS } from './playback-headers';

const TYPES: Record<number, string> = {
  400: 'invalid_parameters',
  403: 'forbidden',
  404: 'not_found',
  412: 'precondition_failed',
  416: 'range_not_satisfiable',
  503: 'service_unavailable',
};

/**
 * Playback errors in the same body the API uses, readable by players' error handlers; CORS
 * open so a browser player can read the reason, and never cached (a 412 turns into 200 once
 * the asset is ready, a 404 may be a playback id not created yet).
 */
@Catch()
export class PlaybackHostErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('PlaybackHost');

  catch(exception: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    if (res.headersSent) {
      // a stream that failed mid-body: the client sees a short read, not a second reply
      this.logger.warn(`playback stream failed after the headers were sent: ${String(exception)}`);
      res.destroy();
      return;
    }
    const status = exception instanceof HttpException ? exception.getStatus() : 500;
    if (status >= 500 && !(exception instanceof PlaybackError)) {
      this.logger.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
    }
    // our own refusals (503 included) say why; an unexpected failure says nothing of its cause
    const message = exception instanceof PlaybackError || (exception instanceof HttpException && status < 500) ? exception.message : 'Internal error';
    const type = TYPES[status] ?? 'internal_error';
    res.status(status).set(CORS_HEADERS).set('cache-control', 'no-store');
    if (exception instanceof PlaybackError) res.set(exception.headers);
    const messages = exception instanceof PlaybackError && exception.messages ? exception.messages : [message];
    res.json({ error: { type, messages } });
  }
}
