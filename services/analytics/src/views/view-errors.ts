import { createHash } from 'node:crypto';
import { BeaconEvent, booleanOf, stringOf } from './beacon-values';

export type ErrorSeverity = 'fatal' | 'warning';

export interface ViewError {
  code: string | null;
  message: string | null;
  context: string | null;
  severity: ErrorSeverity;
  businessException: boolean;
  /** No first frame yet when it happened: a startup failure if it is fatal. */
  beforeFirstFrame: boolean;
  eventTime: number;
  errorTypeId: number;
}

/**
 * The error an `error` event reports. Only `error` events are read: mux-embed lists the
 * player_error_* keys among those sent with every event, and deletes them after the error, so a
 * carried-forward value says nothing. Severity is `warning` only when the player says so; mux-embed
 * treats an error without severity as fatal (it flushes at once unless `warning`).
 */
export function readViewError(event: BeaconEvent, eventTime: number, beforeFirstFrame: boolean): ViewError {
  const code = stringOf(event.player_error_code);
  const message = stringOf(event.player_error_message);
  return {
    code,
    message,
    context: stringOf(event.player_error_context),
    severity: stringOf(event.player_error_severity)?.toLowerCase() === 'warning' ? 'warning' : 'fatal',
    businessException: booleanOf(event.player_error_business_exception) === true,
    beforeFirstFrame,
    eventTime,
    errorTypeId: errorTypeId(code, message),
  };
}

/**
 * A stable positive 31-bit integer per distinct (code, message): the first 4 bytes of
 * SHA-256(`${code}\n${message}`), top bit cleared; empty parts as ''. Any service computing it
 * from the same strings gets the same id (collisions: ~1 in 2 billion per pair of errors).
 */
export function errorTypeId(code: string | null, message: string | null): number {
  const digest = createHash('sha256')
    .update(`${code ?? ''}\n${message ?? ''}`)
    .digest();
  return digest.readUInt32BE(0) & 0x7fffffff;
}
