import { ServiceName } from '@platform/config';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface PlannedRoute {
  method: HttpMethod;
  /** Nest/express path with `:PARAM` segments, as the spec names them. */
  path: string;
}

export interface PlannedResource {
  /** Plural, capitalised: "Assets are not implemented yet". */
  what: string;
  owner: ServiceName;
  routes: PlannedRoute[];
}

const r = (method: HttpMethod, path: string): PlannedRoute => ({ method, path });

/**
 * Documented routes whose service is not built yet (spec 000 §4, 001 §4). Each answers
 * 501 after authentication and the permission check. When a service lands, move its
 * routes out of here into a controller.
 */
export const PLANNED_RESOURCES: PlannedResource[] = [
  {
    what: 'Spaces',
    owner: 'spaces',
    routes: [
      r('POST', '/video/v1/spaces'),
      r('GET', '/video/v1/spaces'),
      r('GET', '/video/v1/spaces/:SPACE_ID'),
      r('DELETE', '/video/v1/spaces/:SPACE_ID'),
      r('POST', '/video/v1/spaces/:SPACE_ID/broadcasts'),
      r('GET', '/video/v1/spaces/:SPACE_ID/broadcasts/:BROADCAST_ID'),
      r('DELETE', '/video/v1/spaces/:SPACE_ID/broadcasts/:BROADCAST_ID'),
      r('POST', '/video/v1/spaces/:SPACE_ID/broadcasts/:BROADCAST_ID/start'),
      r('POST', '/video/v1/spaces/:SPACE_ID/broadcasts/:BROADCAST_ID/stop'),
    ],
  },
];

export function notImplementedMessage(resource: PlannedResource): string {
  return `${resource.what} are not implemented yet (service: ${resource.owner})`;
}
