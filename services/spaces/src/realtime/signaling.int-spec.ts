import { RealtimeServer } from './realtime-server';
import type { RealtimeIdentity } from './realtime-types';
import { verifyTestToken } from './testing/test-tokens';

// The signaling endpoint and the browser files over real sockets, without a browser.

// eslint-disable-next-line @typescript-eslint/no-require-imports
const WebSocket = require('ws') as new (url: string) => any;

interface Client {
  messages: any[];
  closed: Promise<{ code: number; reason: string }>;
  send(message: unknown): void;
  next(type: string): Promise<any>;
}

/** The test tokens, and `malformed`: an identity without a space, which a real verifier never returns. */
const verifyToken = (token: string): Promise<RealtimeIdentity> =>
  token === 'malformed' ? Promise.resolve({ spaceId: '', participantId: 'x', hidden: false }) : verifyTestToken(token);

describe('RealtimeServer signaling', () => {
  let server: RealtimeServer;
  let base: string;
  const events: string[] = [];

  beforeAll(async () => {
    server = new RealtimeServer({
      host: '127.0.0.1',
      verifyToken,
      disconnectGraceMs: 400,
      listener: {
        onParticipantJoined: (spaceId, participant) => void events.push(`joined ${spaceId}/${participant.id}`),
        onParticipantLeft: (spaceId, participantId) => void events.push(`left ${spaceId}/${participantId}`),
      },
    });
    const { port } = await server.listen();
    base = `127.0.0.1:${port}`;
  });

  afterAll(() => server.close());

  function connect(query: string, at = base): Client {
    const socket = new WebSocket(`ws://${at}/spaces/rtc${query}`);
    const messages: any[] = [];
    const waiters: { type: string; resolve: (message: any) => void }[] = [];
    socket.on('message', (data: Buffer) => {
      const message = JSON.parse(data.toString());
      messages.push(message);
      const waiter = waiters.find((w) => w.type === message.type);
      if (waiter) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(message);
      }
    });
    const opened = new Promise((resolve) => socket.on('open', resolve));
    return {
      messages,
      closed: new Promise((resolve) => socket.on('close', (code: number, reason: Buffer) => resolve({ code, reason: reason.toString() }))),
      send: (message) => void opened.then(() => socket.send(typeof message === 'string' ? message : JSON.stringify(message))),
      next: (type) => {
        const seen = messages.find((message) => message.type === type);
        return seen ? Promise.resolve(seen) : new Promise((resolve) => waiters.push({ type, resolve }));
      },
    };
  }

  it('serves the SDK, the pages and the gallery grid module', async () => {
    const client = await fetch(`http://${base}/spaces/client.js`);
    expect(client.status).toBe(200);
    expect(client.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await client.text()).toContain('export function joinSpace(options)');
    const grid = await fetch(`http://${base}/spaces/gallery-grid.js`);
    expect(await grid.text()).toMatch(
      /^\/\/ Generated from services\/spaces\/src\/realtime\/gallery-grid\.ts\nexport function galleryGrid\(n, width, height, aspect = 16 \/ 9\) \{/,
    );
    for (const [path, script] of [
      ['/spaces/compositor', '/spaces/compositor.js'],
      ['/spaces/join', '/spaces/join.js'],
    ]) {
      const page = await fetch(`http://${base}${path}?token=x`);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await page.text()).toContain(`<script type="module" src="${script}"></script>`);
      expect((await fetch(`http://${base}${script}`)).status).toBe(200);
    }
    expect((await fetch(`http://${base}/spaces/client.js`, { method: 'POST' })).status).toBe(404);
    expect((await fetch(`http://${base}/spaces/../package.json`)).status).toBe(404);
  });

  it('refuses a missing, rejected or malformed token with 4401', async () => {
    expect(await connect('').closed).toEqual({ code: 4401, reason: 'unauthorized: missing token' });
    expect(await connect('?token=nope').closed).toEqual({ code: 4401, reason: 'unauthorized: bad test token' });
    expect(await connect('?token=malformed').closed).toEqual({ code: 4401, reason: 'unauthorized: token does not name a space and a participant' });
  });

  it('answers a bad message with an error and 4400', async () => {
    const garbage = connect('?token=s1:a');
    garbage.send('{"type":"join"}');
    expect(await garbage.closed).toEqual({ code: 4400, reason: 'invalid message: publish: Invalid input: expected boolean, received undefined' });
    expect(garbage.messages).toEqual([{ type: 'error', message: 'invalid message: publish: Invalid input: expected boolean, received undefined' }]);
    const early = connect('?token=s1:b');
    early.send({ type: 'publishOffer', sdp: 'v=0' });
    expect(await early.closed).toEqual({ code: 4400, reason: 'publishOffer before join' });
  });

  it('lets no hidden participant publish', async () => {
    const compositor = connect('?token=s1:c:hidden');
    compositor.send({ type: 'join', publish: true });
    expect(await compositor.closed).toEqual({ code: 4403, reason: 'a hidden participant cannot publish' });
  });

  it('offers the subscribe side at once and ends a participant whose media never connects', async () => {
    const client = connect('?token=s2:watcher');
    client.send({ type: 'join', publish: false });
    expect(await client.next('joined')).toEqual({ type: 'joined', participantId: 'watcher', hidden: false, participants: [], activeSpeaker: null });
    const offer = await client.next('subscribeOffer');
    expect(offer.tracks).toEqual([]);
    expect(offer.sdp).toContain('m=application');
    expect(offer.sdp).toContain('a=candidate:');
    const started = Date.now();
    expect(await client.closed).toEqual({ code: 4408, reason: 'media not connected' });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(events.filter((event) => event.includes('s2/'))).toEqual([]);
  });

  it('drops the older connection of a participant that connects again', async () => {
    const first = connect('?token=s3:same');
    first.send({ type: 'join', publish: false });
    await first.next('joined');
    const second = connect('?token=s3:same');
    second.send({ type: 'join', publish: false });
    expect(await first.closed).toEqual({ code: 4409, reason: 'replaced by a newer connection' });
    expect((await second.next('joined')).participantId).toBe('same');
    await server.disconnectAll('s3');
    expect(await second.closed).toEqual({ code: 4410, reason: 'disconnected by the server' });
  });

  it('takes a space’s visible participants up to its limit: a newcomer past it is refused (4429), a reconnect and a hidden one are not', async () => {
    const limited = new RealtimeServer({ host: '127.0.0.1', verifyToken, participantLimit: 2 });
    const at = `127.0.0.1:${(await limited.listen()).port}`;
    try {
      const joined = async (token: string) => {
        const client = connect(`?token=${token}`, at);
        client.send({ type: 'join', publish: false });
        await client.next('joined');
        return client;
      };
      await joined('s5:a');
      const b = await joined('s5:b');
      expect(await connect('?token=s5:c', at).closed).toEqual({ code: 4429, reason: 'the space is full (2 participants)' });
      expect((await joined('s5:compositor:hidden')).messages[0]).toMatchObject({ type: 'joined', hidden: true });
      await joined('s5:a'); // the same participant again replaces its older connection
      expect((await joined('s6:c')).messages[0]).toMatchObject({ type: 'joined', participantId: 'c' }); // another space has places of its own
      expect(await connect('?token=s5:d', at).closed).toEqual({ code: 4429, reason: 'the space is full (2 participants)' });
      b.send({ type: 'leave' });
      expect(await b.closed).toEqual({ code: 1000, reason: 'left' }); // its place is free before its socket closes
      expect((await joined('s5:c')).messages[0]).toMatchObject({ type: 'joined', participantId: 'c' });
    } finally {
      await limited.close();
    }
  });

  it('binds the ICE port range and offers the additional host addresses', async () => {
    const configured = new RealtimeServer({
      host: '127.0.0.1',
      verifyToken,
      ice: { icePortRange: [47100, 47199], iceAdditionalHostAddresses: ['203.0.113.7'] },
    });
    const { port } = await configured.listen();
    try {
      const socket = new WebSocket(`ws://127.0.0.1:${port}/spaces/rtc?token=s4:knobs`);
      socket.on('open', () => socket.send(JSON.stringify({ type: 'join', publish: false })));
      const offer = await new Promise<any>((resolve) =>
        socket.on('message', (data: Buffer) => {
          const message = JSON.parse(data.toString());
          if (message.type === 'subscribeOffer') resolve(message);
        }),
      );
      const candidates = (offer.sdp as string).split('\r\n').filter((line) => line.startsWith('a=candidate:'));
      expect(candidates.some((line) => line.includes(' 203.0.113.7 '))).toBe(true);
      for (const line of candidates) {
        const candidatePort = Number(line.split(' ')[5]);
        expect(candidatePort).toBeGreaterThanOrEqual(47100);
        expect(candidatePort).toBeLessThanOrEqual(47199);
      }
      socket.close();
    } finally {
      await configured.close();
    }
  });

  it('refuses WebSocket upgrades on other paths', async () => {
    const socket = new WebSocket(`ws://${base}/spaces/other?token=s1:a`);
    const error = await new Promise<Error>((resolve) => socket.on('error', resolve));
    expect(error.message).toBe('Unexpected server response: 404');
  });
});
