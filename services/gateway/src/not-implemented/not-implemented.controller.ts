import { Controller, RequestMethod, RequestMapping, Type } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiError } from '../errors/api-error';
import { notImplementedMessage, PLANNED_RESOURCES } from './planned-routes';

function paramsOf(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]);
}

function operationIdOf(method: string, path: string): string {
  return `${method.toLowerCase()}${path.replace(/[^A-Za-z0-9]+/g, '_')}`;
}

/**
 * One controller whose handlers are made from PLANNED_RESOURCES: each route exists (so the
 * guard checks credentials and permission, and the OpenAPI document lists it) and answers
 * 501 naming the service that will own it.
 */
function buildNotImplementedController(): Type {
  @ApiTags('Not implemented yet')
  @Controller()
  class NotImplementedController {}

  PLANNED_RESOURCES.forEach((resource, r) => {
    const message = notImplementedMessage(resource);
    resource.routes.forEach((route, i) => {
      const key = `${resource.owner.replace(/-/g, '_')}_${r}_${i}`;
      const handler = function notImplemented(): never {
        throw new ApiError('not_implemented', message);
      };
      Object.defineProperty(NotImplementedController.prototype, key, { value: handler, writable: true, configurable: true });
      const descriptor = Object.getOwnPropertyDescriptor(NotImplementedController.prototype, key)!;
      const decorators: MethodDecorator[] = [
        RequestMapping({ path: route.path, method: RequestMethod[route.method] }),
        ApiOperation({ summary: `${route.method} ${route.path}`, description: message, operationId: operationIdOf(route.method, route.path) }),
        ApiResponse({ status: 501, description: message }),
        ...paramsOf(route.path).map((name) => ApiParam({ name, type: String })),
      ];
      for (const decorate of decorators) decorate(NotImplementedController.prototype, key, descriptor);
      Object.defineProperty(NotImplementedController.prototype, key, descriptor);
    });
  });
  return NotImplementedController;
}

export const NotImplementedController = buildNotImplementedController();
