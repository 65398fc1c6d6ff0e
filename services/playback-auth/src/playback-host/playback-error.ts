import { HttpException, HttpStatus } from '@nestjs/common';

/** A refusal of the playback host: status, one short reason, and headers the reply needs. */
export class PlaybackError extends HttpException {
  constructor(
    status: number,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message, status);
  }

  /** 400 for parameters that cannot make what was asked (the image host), one message per parameter. */
  static invalid(messages: string[]): PlaybackError {
    const error = new PlaybackError(HttpStatus.BAD_REQUEST, messages.join('; '));
    error.messages = messages;
    return error;
  }

  /** Each reason on its own, when there are several (else the message). */
  messages?: string[];

  static notFound(playbackId: string): PlaybackError {
    return new PlaybackError(HttpStatus.NOT_FOUND, `Playback ID ${playbackId} not found`);
  }

  static forbidden(reason: string): PlaybackError {
    return new PlaybackError(HttpStatus.FORBIDDEN, reason);
  }

  /** 412, as Mux answers for an asset that is not ready (Mux Player reads it that way). */
  static notReady(playbackId: string, status: string): PlaybackError {
    return new PlaybackError(HttpStatus.PRECONDITION_FAILED, `Playback ID ${playbackId} is not ready to play (asset status: ${status})`);
  }

  static rangeNotSatisfiable(size: number): PlaybackError {
    return new PlaybackError(HttpStatus.REQUESTED_RANGE_NOT_SATISFIABLE, `Range not satisfiable: the object has ${size} bytes`, {
      'content-range': `bytes */${size}`,
    });
  }

  static unavailable(): PlaybackError {
    return new PlaybackError(HttpStatus.SERVICE_UNAVAILABLE, 'Playback is temporarily unavailable; try again');
  }
}
