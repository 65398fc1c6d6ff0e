import path from 'node:path';
import {
  credentials,
  loadPackageDefinition,
  Metadata,
  Server,
  ServerCredentials,
  ServiceClientConstructor,
  ServerUnaryCall,
  sendUnaryData,
} from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { ExecutionContext } from '@nestjs/common';
import { loadConfig } from '@platform/config';
import { HEALTH_PROTO, PROTO_LOADER_OPTIONS, PROTO_ROOT } from '@platform/proto';
import { firstValueFrom, of } from 'rxjs';
import { PlatformLogger } from './platform-logger';
import { currentRequestId, currentService, REQUEST_ID_HEADER, requestIdClientInterceptor, requestIdOf, withRequestId } from './request-context';
import { RequestContextInterceptor } from './request-context.interceptor';

describe('request ids', () => {
  it('keeps a caller’s valid X-Request-Id, makes one otherwise', () => {
    expect(requestIdOf('req-1:abc.DEF_9')).toBe('req-1:abc.DEF_9');
    expect(requestIdOf('has space')).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestIdOf('x'.repeat(129))).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestIdOf(['a', 'b'])).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('carries the id of the request through gRPC metadata to the server (the client interceptor)', async () => {
    const definition = loadSync(path.join(PROTO_ROOT, HEALTH_PROTO.file), PROTO_LOADER_OPTIONS);
    const Health = (loadPackageDefinition(definition).grpc as any).health.v1.Health as ServiceClientConstructor;
    const seen: string[][] = [];
    const server = new Server();
    server.addService(Health.service, {
      check: (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => {
        seen.push(call.metadata.get(REQUEST_ID_HEADER).map(String));
        callback(null, { status: 1 });
      },
    });
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
    );
    const client = new Health(`127.0.0.1:${port}`, credentials.createInsecure(), { interceptors: [requestIdClientInterceptor] });
    const check = () => new Promise((resolve, reject) => client.check({}, (err: Error | null, reply: unknown) => (err ? reject(err) : resolve(reply))));
    await withRequestId('req-42', check);
    await check(); // outside a request: no id
    client.close();
    server.forceShutdown();
    expect(seen).toEqual([['req-42'], []]);
  });

  it('runs a gRPC handler within the request its metadata names (the server interceptor)', async () => {
    const metadata = new Metadata();
    metadata.set(REQUEST_ID_HEADER, 'req-7');
    const context = { getType: () => 'rpc', switchToRpc: () => ({ getContext: () => metadata }) } as unknown as ExecutionContext;
    const interceptor = new RequestContextInterceptor('assets');
    const inside = await firstValueFrom(interceptor.intercept(context, { handle: () => of([currentRequestId(), currentService()]) }));
    expect(inside).toEqual(['req-7', 'assets']);
    const http = { getType: () => 'http' } as unknown as ExecutionContext;
    expect(await firstValueFrom(interceptor.intercept(http, { handle: () => of(currentRequestId()) }))).toBeUndefined();
  });

  it('writes JSON log lines with the service and the request id (LOG_FORMAT=json)', () => {
    const lines: string[] = [];
    const write = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    try {
      const logger = new PlatformLogger('assets', loadConfig({ LOG_FORMAT: 'json' }));
      withRequestId('req-9', () => logger.log('asset created', 'AssetsService'));
      logger.log('idle');
    } finally {
      write.mockRestore();
    }
    const [inRequest, outside] = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(inRequest).toMatchObject({ level: 'log', message: 'asset created', context: 'AssetsService', service: 'assets', requestId: 'req-9' });
    expect(outside).toMatchObject({ message: 'idle', service: 'assets' });
    expect(outside.requestId).toBeUndefined();
    expect(loadConfig({}).logFormat).toBe('text');
    expect(loadConfig({ KAFKA_BROKERS: 'k:9092' }).logFormat).toBe('json');
  });
});
