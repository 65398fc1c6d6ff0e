import { ApiError } from '../errors/api-error';

/**
 * The SDK pages asset lists by cursor (`next_cursor` → `?cursor=`) until a page comes back
 * without one. The cursor is the next page number, opaque to clients; `page`/`limit` paging
 * works as well, and both are offset paging over the newest-first order.
 */
export function encodeCursor(page: number): string {
  return Buffer.from(`page:${page}`).toString('base64url');
}

export function decodeCursor(cursor: string): number {
  const match = /^page:([1-9]\d{0,9})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  const page = match ? Number(match[1]) : NaN;
  if (!Number.isSafeInteger(page) || page > 2_147_483_647) throw ApiError.invalid('cursor: is not a cursor this API gave out');
  return page;
}
