import { GrpcStatus } from '@platform/errors';
import { assets } from '@platform/proto';
import { of, throwError } from 'rxjs';
import { GrpcAssetProcessing, isUnreachable } from './asset-processing';

const grpcError = (code: GrpcStatus, details: string) => Object.assign(new Error(`${code} ${details}`), { code, details });

describe('GrpcAssetProcessing', () => {
  const spec: assets.IngestSpec = {
    asset_id: 'a1',
    status: 'preparing',
    input: [{ url: 'https://example.com/a.mp4', generated_subtitles: [] }],
    test: false,
    max_resolution_tier: '1080p',
    encoding_tier: 'smart',
    video_quality: 'plus',
    normalize_audio: false,
  };

  it('passes requests through and resolves the answers', async () => {
    const calls: unknown[] = [];
    const client = {
      getIngestSpec: (r: unknown) => (calls.push(['getIngestSpec', r]), of(spec)),
      markReady: (r: unknown) => (calls.push(['markReady', r]), of({})),
      markErrored: (r: unknown) => (calls.push(['markErrored', r]), of({})),
    } as unknown as assets.AssetProcessingServiceClient;
    const port = new GrpcAssetProcessing(client);
    expect(await port.getIngestSpec('a1')).toEqual(spec);
    await port.markReady('a1');
    await port.markErrored('a1', { type: 'invalid_input', messages: ['x'] });
    expect(calls).toEqual([
      ['getIngestSpec', { id: 'a1' }],
      ['markReady', { asset_id: 'a1' }],
      ['markErrored', { asset_id: 'a1', errors: { type: 'invalid_input', messages: ['x'] } }],
    ]);
  });

  it('reads NOT_FOUND as "the asset is gone" and lets other failures through', async () => {
    const gone = new GrpcAssetProcessing({ getIngestSpec: () => throwError(() => grpcError(GrpcStatus.NOT_FOUND, 'Asset not found')) } as never);
    expect(await gone.getIngestSpec('a1')).toBeUndefined();
    const down = new GrpcAssetProcessing({ getIngestSpec: () => throwError(() => grpcError(GrpcStatus.UNAVAILABLE, 'No connection')) } as never);
    await expect(down.getIngestSpec('a1')).rejects.toMatchObject({ code: GrpcStatus.UNAVAILABLE });
  });
});

describe('isUnreachable', () => {
  it('is true for UNAVAILABLE, DEADLINE_EXCEEDED and a call timeout, false for answers and other errors', () => {
    expect(isUnreachable(grpcError(GrpcStatus.UNAVAILABLE, 'No connection established'))).toBe(true);
    expect(isUnreachable(grpcError(GrpcStatus.DEADLINE_EXCEEDED, 'Deadline exceeded'))).toBe(true);
    expect(isUnreachable(Object.assign(new Error('Timeout has occurred'), { name: 'TimeoutError' }))).toBe(true);
    expect(isUnreachable(grpcError(GrpcStatus.FAILED_PRECONDITION, 'asset is ready'))).toBe(false);
    expect(isUnreachable(new Error('ffmpeg exited with status 1'))).toBe(false);
    expect(isUnreachable(undefined)).toBe(false);
  });
});
