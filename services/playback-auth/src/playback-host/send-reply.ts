import { pipeline } from 'node:stream';
import { Logger } from '@nestjs/common';
import type { Response } from 'express';
import { CORS_HEADERS } from './playback-headers';
import { PlaybackReply } from './playback-host.service';

const logger = new Logger('PlaybackHost');

/** Writes a reply: the same status and headers for HEAD, without the body. */
export function sendReply(res: Response, reply: PlaybackReply, head: boolean): void {
  res.status(reply.status);
  for (const [name, value] of Object.entries({ ...CORS_HEADERS, ...reply.headers })) res.setHeader(name, value);
  const body = reply.body;
  if (head || body === undefined) {
    res.end();
    return;
  }
  if (Buffer.isBuffer(body)) {
    res.end(body);
    return;
  }
  pipeline(body, res, (err) => {
    // a viewer that stops reading (seek, tab closed) is normal; anything else is worth a line
    if (err && err.code !== 'ERR_STREAM_PREMATURE_CLOSE') logger.warn(`segment stream failed: ${err.message}`);
  });
}
