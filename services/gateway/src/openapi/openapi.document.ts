import { INestApplication, Injectable } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { errorBodySchema } from '../errors/error-body.schema';
import { openApiSchema } from '../validation/openapi-schema';
import { declareNulFreeRequestStrings } from './nul-free-strings';

const PUBLIC_PATHS = new Set(['/healthz', '/openapi.json']);
/** Second prefixes one controller also serves, kept for old clients: the signing keys' and Mux's real-time API. */
const DEPRECATED_PREFIXES = ['/video/v1/signing-keys', '/data/v1/realtime'];
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

/** Holds the document built from the running app's controllers. */
@Injectable()
export class OpenApiDocument {
  private document: OpenAPIObject | undefined;

  set(document: OpenAPIObject): void {
    this.document = document;
  }

  get(): OpenAPIObject {
    if (!this.document) throw new Error('The OpenAPI document is built by setupGateway(app) before the app listens');
    return this.document;
  }
}

/**
 * Scans the app's controllers: request and response schemas come from the zod schemas the
 * routes validate with (ZodBody, ZodQuery, ZodResponse). Then adds what decorators cannot
 * say: Basic auth everywhere but the public paths, the error body on every operation, and
 * the deprecated duplicates (signing keys, real-time).
 */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Video platform API')
    .setDescription('Mux-compatible Video, System and Data API. Authenticate with HTTP Basic: access token id and secret.')
    .setVersion('v1')
    .addBasicAuth({ type: 'http', scheme: 'basic' }, 'accessToken')
    .addSecurityRequirements('accessToken')
    .build();
  const document = SwaggerModule.createDocument(app, config);
  const errorResponse = {
    description: 'Error: `{"error":{"type","messages"}}`',
    content: { 'application/json': { schema: openApiSchema(errorBodySchema, 'output') } },
  };
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!operation) continue;
      operation.responses = { ...operation.responses, default: errorResponse };
      if (PUBLIC_PATHS.has(path)) operation.security = [];
      // One controller serves both prefixes; Nest numbers their operation ids [0], [1].
      const deprecated = DEPRECATED_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
      if (deprecated) operation.deprecated = true;
      if (operation.operationId) operation.operationId = operation.operationId.replace(/\[\d+\]$/, deprecated ? '_deprecated' : '');
    }
  }
  declareNulFreeRequestStrings(document);
  return document;
}
