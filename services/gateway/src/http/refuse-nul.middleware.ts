import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { ApiError } from '../errors/api-error';

// eslint-disable-next-line no-control-regex -- NUL is exactly what the gateway refuses
const NUL_IN_URL = /%00|\u0000/i;

/**
 * Postgres text cannot hold U+0000, so a NUL byte anywhere in a request would reach a service
 * only to fail there as a 500. Refused here, before auth and routing, for the path and query;
 * bodies are checked as they are parsed (`read-json-body.ts`).
 */
@Injectable()
export class RefuseNulMiddleware implements NestMiddleware {
  use(req: Request, _res: Response, next: NextFunction): void {
    if (NUL_IN_URL.test(req.originalUrl)) throw nulRefused('the URL');
    next();
  }
}

export function nulRefused(where: string): ApiError {
  return ApiError.invalid(`${where}: must not contain a NUL character (\\u0000)`);
}

/** Whether any string (key or value) inside a parsed JSON value holds U+0000. */
export function containsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(containsNul);
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).some(([key, inner]) => key.includes('\u0000') || containsNul(inner));
  }
  return false;
}
