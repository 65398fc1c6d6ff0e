import type { SchemaObject } from '@nestjs/swagger';
import { z } from 'zod';

/**
 * The OpenAPI 3.0 schema of a zod schema: `input` for what a caller sends (defaults make
 * fields optional), `output` for what the gateway answers or a query parses to.
 */
export function openApiSchema(schema: z.ZodType, io: 'input' | 'output'): SchemaObject {
  const json = z.toJSONSchema(schema, {
    target: 'openapi-3.0',
    io,
    unrepresentable: 'any',
    // Responses may gain fields over time: clients must not be told that none can appear.
    override: ({ jsonSchema }) => {
      if (io === 'output' && jsonSchema.additionalProperties === false) delete jsonSchema.additionalProperties;
    },
  }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}
