import net from 'node:net';
import tls from 'node:tls';
import { PublishNameRewriter } from './rtmp-publish-rewriter';

export interface KeyProxyOptions {
  /** The address the outbound guard checked: the connection goes there, never to a second DNS answer. */
  address: string;
  /** The target's host name (TLS server name and certificate check for rtmps) and port. */
  host: string;
  port: number;
  tls: boolean;
  /** What the local publisher names its stream, and the real stream name (the key), of the same length in bytes. */
  standIn: string;
  streamName: string;
  /** The local port of the connection to the target (the ingest refuses publishes coming from it). */
  onUpstream?(localPort: number): void;
  /** For tests: the certificate authorities trusted for rtmps (default: Node's). */
  ca?: string | Buffer;
}

/**
 * A loopback RTMP endpoint for one simulcast relay's ffmpeg. ffmpeg publishes to it under a
 * stand-in stream name; the proxy connects to the target (TCP, or TLS for rtmps, to the checked
 * address) and forwards both ways, putting the stream key in place of the stand-in in the publish
 * commands (PublishNameRewriter). So the key is never on ffmpeg's command line. It takes one
 * connection and then stops listening.
 */
export class RtmpKeyProxy {
  private readonly server = net.createServer();
  private readonly sockets = new Set<net.Socket>();

  private constructor(private readonly options: KeyProxyOptions) {}

  static async listen(options: KeyProxyOptions): Promise<RtmpKeyProxy> {
    const proxy = new RtmpKeyProxy(options);
    proxy.server.on('connection', (client) => proxy.accept(client));
    await new Promise<void>((resolve, reject) => {
      proxy.server.once('error', reject);
      proxy.server.listen(0, '127.0.0.1', () => resolve());
    });
    return proxy;
  }

  get port(): number {
    return (this.server.address() as net.AddressInfo).port;
  }

  close(): void {
    this.server.close();
    for (const socket of this.sockets) socket.destroy();
  }

  private accept(client: net.Socket): void {
    this.server.close(); // one publisher only
    const { address, host, port } = this.options;
    const upstream = this.options.tls
      ? tls.connect({ host: address, port, servername: net.isIP(host) ? undefined : host, ca: this.options.ca })
      : net.connect({ host: address, port });
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.on('error', () => undefined); // either side's end closes both, below
      socket.once('close', () => {
        this.sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    upstream.once(this.options.tls ? 'secureConnect' : 'connect', () => this.options.onUpstream?.(upstream.localPort ?? 0));
    const rewriter = new PublishNameRewriter(this.options.standIn, this.options.streamName);
    client.on('data', (data: Buffer) => {
      const out = rewriter.push(data);
      if (out.length > 0 && !upstream.write(out)) client.pause();
    });
    upstream.on('drain', () => client.resume());
    upstream.pipe(client);
  }
}
