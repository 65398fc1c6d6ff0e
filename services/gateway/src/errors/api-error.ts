/** The error types of the wire body `{"error":{"type","messages"}}` and their HTTP statuses. */
export const ERROR_STATUS = {
  invalid_parameters: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  too_many_requests: 429,
  internal_error: 500,
  not_implemented: 501,
  service_unavailable: 503,
} as const;

export type ErrorType = keyof typeof ERROR_STATUS;

/**
 * Outcomes a retry of the same request cannot change. The official SDK retries 408, 409,
 * 429 and 5xx unless told `x-should-retry: false`.
 */
const NOT_RETRYABLE: ReadonlySet<ErrorType> = new Set<ErrorType>([
  'invalid_parameters',
  'unauthorized',
  'forbidden',
  'not_found',
  'method_not_allowed',
  'conflict',
  'payload_too_large',
  'unsupported_media_type',
  'not_implemented',
]);

export function isRetryable(type: ErrorType): boolean {
  return !NOT_RETRYABLE.has(type);
}

const DEFAULT_MESSAGES: Record<ErrorType, string> = {
  invalid_parameters: 'Invalid parameters',
  unauthorized: 'Unauthorized request',
  forbidden: 'The access token lacks the permission for this request',
  not_found: 'Not found',
  method_not_allowed: 'The method is not allowed on this path',
  conflict: 'The request conflicts with the current state of the resource',
  payload_too_large: 'The request body is too large',
  unsupported_media_type: 'Unsupported media type',
  too_many_requests: 'Too many requests',
  internal_error: 'Internal error',
  not_implemented: 'Not implemented',
  service_unavailable: 'A service is temporarily unavailable; try again later',
};

export function defaultMessage(type: ErrorType): string {
  return DEFAULT_MESSAGES[type];
}

/** An error the gateway answers itself, with its wire type, messages and extra headers. */
export class ApiError extends Error {
  readonly messages: string[];

  constructor(
    readonly type: ErrorType,
    messages: string | string[] = [],
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    const list = (Array.isArray(messages) ? messages : [messages]).filter((m) => m !== '');
    super(list.join('; ') || defaultMessage(type));
    this.name = 'ApiError';
    this.messages = list.length > 0 ? list : [defaultMessage(type)];
  }

  get status(): number {
    return ERROR_STATUS[this.type];
  }

  static invalid(...messages: string[]): ApiError {
    return new ApiError('invalid_parameters', messages);
  }
}
