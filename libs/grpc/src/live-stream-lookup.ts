import { DomainError, ErrorCode, GrpcStatus } from '@platform/errors';
import { live } from '@platform/proto';
import { firstValueFrom } from 'rxjs';

/** What a service sending to a live stream needs of it. */
export interface DestinationStream {
  status: string;
  streamKey: string;
}

/**
 * A live stream another service sends to (a web input's, a broadcast's), from the live service; an outage of
 * the live service is a 503 to the caller, not a 500.
 */
export class LiveStreamLookup {
  constructor(private readonly liveStreams: live.LiveStreamsServiceClient) {}

  /** Undefined when it does not exist. */
  async find(id: string): Promise<DestinationStream | undefined> {
    try {
      const stream = await firstValueFrom(this.liveStreams.getLiveStream({ id }));
      return { status: stream.status, streamKey: stream.stream_key };
    } catch (err) {
      if (codeOf(err) === GrpcStatus.NOT_FOUND) return undefined;
      throw unavailableOr(err);
    }
  }

  /** Calls complete on the stream (its encoder's disconnect ends the asset at once); a stream gone since is no error. */
  async complete(id: string): Promise<void> {
    try {
      await firstValueFrom(this.liveStreams.completeLiveStream({ id }));
    } catch (err) {
      if (codeOf(err) === GrpcStatus.NOT_FOUND) return;
      throw unavailableOr(err);
    }
  }
}

function codeOf(err: unknown): number | undefined {
  return (err as { code?: number }).code;
}

function unavailableOr(err: unknown): unknown {
  const code = codeOf(err);
  if (code === GrpcStatus.UNAVAILABLE || code === GrpcStatus.DEADLINE_EXCEEDED) {
    return new DomainError(ErrorCode.UNAVAILABLE, ['The live service is not reachable; try again']);
  }
  return err;
}

export const LIVE_STREAM_LOOKUP = Symbol('LIVE_STREAM_LOOKUP');
