import net from 'node:net';

/**
 * Sends one GET on a raw socket (kept alive) and reads one whole response framed by its
 * Content-Length; rejects if the server closes the connection instead. For tests of how
 * servers treat connections, which fetch and http.Agent hide.
 */
export function rawGet(socket: net.Socket, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString();
      const [head, body = ''] = text.split('\r\n\r\n');
      const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? NaN);
      if (Buffer.byteLength(body) >= length) done(() => resolve(text));
    };
    const onEnd = () => done(() => reject(new Error('the server closed the connection')));
    const onError = (err: Error) => done(() => reject(err));
    const done = (then: () => void) => {
      socket.off('data', onData);
      socket.off('end', onEnd);
      socket.off('error', onError);
      then();
    };
    socket.on('data', onData);
    socket.on('end', onEnd);
    socket.on('error', onError);
    socket.write(`GET ${path} HTTP/1.1\r\nHost: test\r\nConnection: keep-alive\r\n\r\n`);
  });
}
