import { DomainError, ErrorCode, GrpcStatus } from '@platform/errors';
import { live } from '@platform/proto';
import { firstValueFrom } from 'rxjs';

export interface DestinationStream {
  status: string;
  streamKey: string;
}

/** The destination live stream of a web input, from the live service; undefined when it does not exist. */
export class LiveStreamLookup {
  constructor(private readonly liveStreams: live.LiveStreamsServiceClient) {}

  async find(id: string): Promise<DestinationStream | undefined> {
    try {
      const stream = await firstValueFrom(this.liveStreams.getLiveStream({ id }));
      return { status: stream.status, streamKey: stream.stream_key };
    } catch (err) {
      const code = (err as { code?: number }).code;
      if (code === GrpcStatus.NOT_FOUND) return undefined;
      if (code === GrpcStatus.UNAVAILABLE || code === GrpcStatus.DEADLINE_EXCEEDED) {
        throw new DomainError(ErrorCode.UNAVAILABLE, ['The live service is not reachable; try again']);
      }
      throw err;
    }
  }
}

export const LIVE_STREAM_LOOKUP = Symbol('LIVE_STREAM_LOOKUP');
