import type { OpenAPIObject } from '@nestjs/swagger';

/** Postgres text cannot hold U+0000, so the gateway refuses it anywhere in a request (refuse-nul.middleware.ts). */
export const NUL_FREE = '^[^\\u0000]*$';

type Schema = Record<string, unknown>;

/**
 * Says in the document what RefuseNulMiddleware and readJsonBody enforce: every string a caller
 * sends (path, query and header parameters, body fields) holds no NUL character. Strings with
 * their own pattern or enum are left as they are: those patterns never match a NUL already.
 */
export function declareNulFreeRequestStrings(document: OpenAPIObject): void {
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item) as Array<Schema | undefined>) {
      if (typeof operation !== 'object' || operation === null || !('responses' in operation)) continue;
      for (const parameter of (operation.parameters as Schema[] | undefined) ?? []) visit(parameter.schema);
      const body = operation.requestBody as { content?: Record<string, { schema?: unknown }> } | undefined;
      for (const media of Object.values(body?.content ?? {})) visit(media.schema);
    }
  }
}

function visit(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(visit);
  if (typeof node !== 'object' || node === null) return;
  const schema = node as Schema;
  if (schema.type === 'string' && schema.pattern === undefined && schema.enum === undefined) schema.pattern = NUL_FREE;
  for (const value of Object.values(schema)) visit(value);
}
