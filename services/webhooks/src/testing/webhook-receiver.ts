import http from 'node:http';
import { AddressInfo } from 'node:net';

export interface ReceivedPost {
  at: number;
  headers: Record<string, string>;
  body: string;
  objectId: string;
  eventId: string;
}

/** Status to answer, or 'hang' to never answer (the dispatcher's timeout ends it). */
export type Reply = number | 'hang';

/**
 * The user's endpoint for integration tests: records every POST (raw body, headers, time)
 * and answers with `reply(objectId, nth POST for that object)`.
 */
export async function startWebhookReceiver(reply: (objectId: string, nth: number) => Reply) {
  const posts: ReceivedPost[] = [];
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const parsed = JSON.parse(body) as { id: string; object: { id: string } };
      const post = {
        at: Date.now(),
        headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
        body,
        objectId: parsed.object.id,
        eventId: parsed.id,
      };
      posts.push(post);
      const answer = reply(post.objectId, posts.filter((p) => p.objectId === post.objectId).length);
      if (answer === 'hang') {
        hanging.add(res);
        return;
      }
      res.writeHead(answer, { 'content-type': 'text/plain' }).end(`answered ${answer}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    posts,
    of: (eventId: string) => posts.filter((p) => p.eventId === eventId),
    close: () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
