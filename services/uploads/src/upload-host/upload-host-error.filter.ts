import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { UploadHostError } from './upload-host-error';

/** Refusals of the upload host in the API's error body; anything unexpected is a bare 500. */
@Catch()
export class UploadHostErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('UploadHost');

  catch(exception: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    if (res.headersSent) {
      res.destroy();
      return;
    }
    let status = 500;
    let type = 'internal_error';
    let message = 'Internal error';
    if (exception instanceof UploadHostError) {
      ({ status, type, message } = exception);
      res.set(exception.headers);
    } else if (exception instanceof HttpException && exception.getStatus() < 500) {
      status = exception.getStatus();
      type = status === 404 ? 'not_found' : 'invalid_parameters';
      message = exception.message;
    } else {
      this.logger.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
    }
    res
      .status(status)
      .set('cache-control', 'no-store')
      .json({ error: { type, messages: [message] } });
  }
}
