import { applyDecorators, Body, Injectable, PipeTransform, Query } from '@nestjs/common';
import { ApiBody, ApiQuery, ApiResponse } from '@nestjs/swagger';
import { z } from 'zod';
import { ApiError } from '../errors/api-error';
import { errorBodySchema } from '../errors/error-body.schema';
import { openApiSchema } from './openapi-schema';
import { parseWith } from './zod-issues';

/** Validates (and converts) a request part with a zod schema; 400 naming every bad field. */
@Injectable()
export class ZodValidationPipe<T extends z.ZodType> implements PipeTransform<unknown, z.output<T>> {
  constructor(
    readonly schema: T,
    private readonly root: string,
  ) {}

  transform(value: unknown): z.output<T> {
    const result = parseWith(this.schema, value, this.root);
    if (!result.ok) throw ApiError.invalid(...result.messages);
    return result.value;
  }
}

function methodDescriptor(target: object, key: string | symbol | undefined): [string | symbol, PropertyDescriptor] {
  if (key === undefined) throw new Error('zod parameter decorators apply to method parameters only');
  const descriptor = Object.getOwnPropertyDescriptor(target, key);
  if (!descriptor) throw new Error(`no method ${String(key)} to document`);
  return [key, descriptor];
}

/**
 * The JSON body, validated by `schema` and documented in the OpenAPI document by the same
 * schema, so the two cannot drift. A request without a body is taken as `{}`
 * (read-json-body.ts), so the body is documented as required only when `{}` is refused.
 */
export function ZodBody(schema: z.ZodType): ParameterDecorator {
  return (target, key, index) => {
    Body(new ZodValidationPipe(schema, 'body'))(target, key, index);
    const [name, descriptor] = methodDescriptor(target, key);
    ApiBody({ schema: openApiSchema(schema, 'input'), required: !schema.safeParse({}).success })(target, name, descriptor);
  };
}

/**
 * The query string, validated and documented (one parameter per field) from one zod object.
 * A parameter the route does not know is refused, as an unknown body field is.
 */
export function ZodQuery(schema: z.ZodObject): ParameterDecorator {
  return (target, key, index) => {
    Query(new ZodValidationPipe(schema.strict(), 'query'))(target, key, index);
    const [name, descriptor] = methodDescriptor(target, key);
    const shape: Record<string, z.ZodType> = schema.shape;
    for (const [field, fieldSchema] of Object.entries(shape)) {
      ApiQuery({ name: field, required: !fieldSchema.safeParse(undefined).success, schema: openApiSchema(fieldSchema, 'output') })(target, name, descriptor);
    }
  };
}

/**
 * Documents that a route answers 501 `not_implemented` for fields of Mux features not built yet
 * (unbuilt-features.ts): the fuzz run accepts a 501 only where the document declares it.
 */
export function AnswersNotImplemented(which: string): MethodDecorator {
  return applyDecorators(ApiResponse({ status: 501, description: `not_implemented: ${which}`, schema: openApiSchema(errorBodySchema, 'output') }));
}

/** Documents a success response by the zod schema of its body (none for 204). */
export function ZodResponse(status: number, description: string, schema?: z.ZodType): MethodDecorator {
  return applyDecorators(ApiResponse({ status, description, ...(schema ? { schema: openApiSchema(schema, 'output') } : {}) }));
}
