import { ArgumentsHost, Catch, ExceptionFilter, HttpException } from '@nestjs/common';
import type { Response } from 'express';

/** Playback errors in the same body the API uses, readable by players' error handlers. */
@Catch()
export class PlaybackHostErrorFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    const status = exception instanceof HttpException ? exception.getStatus() : 500;
    const message = exception instanceof HttpException ? exception.message : 'Internal error';
    const type = status === 404 ? 'not_found' : status === 403 ? 'forbidden' : 'internal_error';
    res.status(status).setHeader('access-control-allow-origin', '*').json({ error: { type, messages: [message] } });
  }
}
