import { CanActivate, ExecutionContext, HttpStatus, Inject, Injectable, Type } from '@nestjs/common';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import type { Request } from 'express';
import { PlaybackError } from './playback-error';

/** The two hosts this service's HTTP side serves: HLS and downloads on STREAM_PORT, images on IMAGE_PORT. */
export type HostName = 'stream' | 'image';

/** Which host a request came in on: the port its connection was made to (a pod's container port on Kubernetes). */
export function hostOf(req: Request, config: PlatformConfig): HostName {
  return req.socket.localPort === config.images.port ? 'image' : 'stream';
}

/**
 * A guard keeping a controller's routes to one host: both hosts are one Nest app listening on two ports
 * (one set of providers), so a route of the other host answers 404 here as it would on a host of its own.
 */
export function servedOn(host: HostName): Type<CanActivate> {
  @Injectable()
  class ServedOn implements CanActivate {
    constructor(@Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig) {}

    canActivate(context: ExecutionContext): boolean {
      const req = context.switchToHttp().getRequest<Request>();
      if (hostOf(req, this.config) === host) return true;
      throw new PlaybackError(HttpStatus.NOT_FOUND, `Not ${host === 'image' ? 'a playback' : 'an image'} URL: ${req.method} ${req.path}`);
    }
  }
  return ServedOn;
}

export const StreamHostOnly = servedOn('stream');
export const ImageHostOnly = servedOn('image');
