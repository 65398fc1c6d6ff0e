/** A refusal of the upload host, with the HTTP status and the error body's `type`. */
export class UploadHostError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'UploadHostError';
  }

  static notFound(): UploadHostError {
    return new UploadHostError(404, 'not_found', 'Upload not found');
  }

  static forbidden(message: string): UploadHostError {
    return new UploadHostError(403, 'forbidden', message);
  }

  /** The upload can take no more bytes: cancelled, timed out, errored. */
  static gone(message: string): UploadHostError {
    return new UploadHostError(410, 'gone', message);
  }

  static invalid(message: string): UploadHostError {
    return new UploadHostError(400, 'invalid_parameters', message);
  }

  static conflict(message: string, headers: Record<string, string> = {}): UploadHostError {
    return new UploadHostError(409, 'conflict', message, headers);
  }

  /**
   * Another request holds the upload. 503 with Retry-After rather than 409: UpChunk gives up on a
   * 409 but retries 503, and the holder's claim ends with its request or lapses within seconds.
   */
  static busy(message: string, retryAfterSeconds: number): UploadHostError {
    return new UploadHostError(503, 'service_unavailable', message, { 'retry-after': String(retryAfterSeconds) });
  }

  static tooLarge(maxBytes: number): UploadHostError {
    return new UploadHostError(413, 'payload_too_large', `The file is larger than this platform takes (${maxBytes} bytes, INPUT_MAX_BYTES)`);
  }
}
