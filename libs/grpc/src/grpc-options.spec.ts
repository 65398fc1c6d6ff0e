import * as grpc from '@grpc/grpc-js';
import { loadConfig } from '@platform/config';
import { grpcClientOptions, grpcServerOptions } from './grpc-options';

type Handler = (call: { request: Record<string, string> }, callback: (err: unknown, reply: Record<string, unknown[]>) => void) => void;

/** How many servers and channels grpc-js's channelz keeps track of now. */
function channelzCounts(): { servers: number; channels: number } {
  const handlers = grpc.getChannelzHandlers() as unknown as Record<'GetServers' | 'GetTopChannels', Handler>;
  let servers = 0;
  let channels = 0;
  handlers.GetServers({ request: { start_server_id: '0', max_results: '1000' } }, (_err, reply) => (servers = reply.server.length));
  handlers.GetTopChannels({ request: { start_channel_id: '0', max_results: '1000' } }, (_err, reply) => (channels = reply.channel.length));
  return { servers, channels };
}

describe('gRPC channel options', () => {
  const config = loadConfig({});

  it('keep servers and clients out of channelz (per-call bookkeeping nothing reads)', () => {
    const before = channelzCounts();
    const server = new grpc.Server(grpcServerOptions('assets', config).options.channelOptions);
    const client = new grpc.Client(config.grpcUrls.assets, grpc.credentials.createInsecure(), grpcClientOptions('assets', config).options.channelOptions);
    expect(channelzCounts()).toEqual(before);

    const tracked = new grpc.Server();
    expect(channelzCounts().servers).toBe(before.servers + 1); // the default would have been tracked
    client.close();
    void server.forceShutdown();
    void tracked.forceShutdown();
  });

  it('listen on GRPC_BIND_HOST at the service’s port, an IPv6 address in brackets (a pod IP on a dual-stack node)', () => {
    const at = (host: string) => grpcServerOptions('assets', loadConfig({ GRPC_BIND_HOST: host })).options.url;
    const port = config.grpcUrls.assets.split(':').pop();
    expect(at('0.0.0.0')).toBe(`0.0.0.0:${port}`);
    expect(at('::')).toBe(`[::]:${port}`);
    expect(at('fd00::12')).toBe(`[fd00::12]:${port}`);
  });
});
