import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { AddressInfo } from 'node:net';
import path from 'node:path';

/** Something held until `release()`. */
export interface Gate {
  release(): void;
}

function gate(): Gate & { opened: Promise<void> } {
  let release!: () => void;
  const opened = new Promise<void>((resolve) => (release = resolve));
  return { opened, release };
}

export interface GatedFileServer {
  url(name: string): string;
  /** The next requests of `name` wait until the gate is released (a slow media host, at a moment the test picks). */
  hold(name: string): Gate;
  close(): Promise<void>;
}

/** Serves the files of a folder (404 for others), each request of a held name answered only once released. */
export async function serveGatedFiles(dir: string): Promise<GatedFileServer> {
  const held = new Map<string, Promise<void>>();
  const server = http.createServer((req, res) => {
    const name = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname.slice(1));
    void (held.get(name) ?? Promise.resolve()).then(() => {
      const file = path.join(dir, path.basename(name));
      if (!name || !fs.existsSync(file)) return void res.writeHead(404).end('not found');
      // pages as HTML (a web input's browser would download anything else), the rest as bytes
      const type = file.endsWith('.html') ? 'text/html' : 'application/octet-stream';
      res.writeHead(200, { 'content-type': type, 'content-length': fs.statSync(file).size });
      fs.createReadStream(file).pipe(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (name) => `http://127.0.0.1:${port}/${encodeURIComponent(name)}`,
    hold(name) {
      const g = gate();
      held.set(name, g.opened);
      return { release: () => (g.release(), held.delete(name)) };
    },
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

export interface GatedProxy {
  port: number;
  /** Connections made from now on wait (accepted, no byte through) until the gate is released. */
  hold(): Gate;
  close(): Promise<void>;
}

/** A TCP proxy to `targetPort` on loopback: what a slow third-party server looks like to a client connecting to it. */
export async function gatedTcpProxy(targetPort: number): Promise<GatedProxy> {
  let opened: Promise<void> = Promise.resolve();
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    client.pause();
    client.on('close', () => sockets.delete(client));
    client.on('error', () => undefined);
    void opened.then(() => {
      if (client.destroyed) return;
      const upstream = net.connect(targetPort, '127.0.0.1');
      sockets.add(upstream);
      upstream.on('close', () => (sockets.delete(upstream), client.destroy()));
      upstream.on('error', () => client.destroy());
      client.on('close', () => upstream.destroy());
      client.pipe(upstream).pipe(client);
      client.resume();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    hold() {
      const g = gate();
      opened = g.opened;
      return g;
    },
    close: () => new Promise((resolve) => (sockets.forEach((s) => s.destroy()), server.close(() => resolve()))),
  };
}
