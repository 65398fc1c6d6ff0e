import { INestApplication } from '@nestjs/common';
import { applyHttpServerTimeouts } from '@platform/grpc';
import type { Express } from 'express';
import type { Server } from 'node:http';
import { buildOpenApiDocument, OpenApiDocument } from './openapi/openapi.document';

/** What the app needs after creation and before it listens (also used by the tests). */
export function setupGateway(app: INestApplication): INestApplication {
  (app.getHttpAdapter().getInstance() as Express).disable('x-powered-by');
  app.get(OpenApiDocument).set(buildOpenApiDocument(app));
  applyHttpServerTimeouts(app.getHttpServer() as Server);
  return app;
}
