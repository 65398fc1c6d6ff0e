import { KubeConfig, V1Pod } from '@kubernetes/client-node';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import { PodChange, PodWatch } from './pod-watch';

/**
 * The watch's recovery paths, which a healthy cluster does not produce on demand (the API server's watch cache
 * answers old resourceVersions until etcd has been compacted and the cache has moved on): the real
 * @kubernetes/client-node against a small HTTP server speaking the API's list and watch protocol. The happy path
 * runs against a real API server in kubernetes-pod-launcher.cluster-spec.ts.
 */
describe('PodWatch', () => {
  const pod = (name: string, resourceVersion: string): V1Pod => ({ metadata: { name, resourceVersion } });
  let server: http.Server;
  const watches: string[] = [];
  let lists = 0;
  /** What each list answers (resourceVersion, pods), and what each watch request does, in order. */
  let listAnswers: Array<[string, V1Pod[]]>;
  let watchPlays: Array<(res: http.ServerResponse) => void>;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const url = new URL(req.url!, 'http://x');
      expect(url.pathname).toBe('/api/v1/namespaces/video/pods');
      expect(url.searchParams.get('labelSelector')).toBe('app.kubernetes.io/component=capture-worker');
      if (url.searchParams.get('watch') !== 'true') {
        const [resourceVersion, items] = listAnswers[lists++];
        return void res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ kind: 'PodList', apiVersion: 'v1', metadata: { resourceVersion }, items }));
      }
      watches.push(url.searchParams.get('resourceVersion') ?? '');
      const play = watchPlays.shift();
      if (play) play(res);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  });
  afterAll(() => server.close());

  const event = (res: http.ServerResponse, type: string, object: unknown) => res.write(`${JSON.stringify({ type, object })}\n`);
  const stream = (res: http.ServerResponse) => res.writeHead(200, { 'content-type': 'application/json' });

  it('takes an ended watch up from the last resourceVersion, relists after 410 Gone (event or status), retries errors', async () => {
    listAnswers = [
      ['10', [pod('a', '10')]],
      ['30', [pod('b', '29')]],
      ['40', [pod('b', '29'), pod('c', '40')]],
    ];
    watchPlays = [
      (res) => {
        stream(res);
        event(res, 'MODIFIED', pod('a', '11'));
        event(res, 'BOOKMARK', { metadata: { resourceVersion: '15' } });
        res.end(); // the server's own timeout
      },
      (res) => {
        stream(res);
        event(res, 'ERROR', { kind: 'Status', code: 410, reason: 'Expired', message: 'too old resource version: 15 (25)' });
        res.end();
      },
      (res) => res.writeHead(410).end(),
      (res) => res.writeHead(500).end('etcd is down'),
      (res) => {
        stream(res);
        event(res, 'DELETED', pod('c', '41'));
      },
    ];
    const kc = new KubeConfig();
    // skipTLSVerify: the client refuses a plain-http server without it
    kc.loadFromOptions({
      clusters: [{ name: 'fake', server: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, skipTLSVerify: true }],
      users: [{ name: 'nobody' }],
      contexts: [{ name: 'fake', cluster: 'fake', user: 'nobody' }],
      currentContext: 'fake',
    });
    const changes: Array<[PodChange, string | undefined]> = [];
    const relists: string[][] = [];
    const watch = new PodWatch(kc, 'video', 'app.kubernetes.io/component=capture-worker', {
      onChange: (change, p) => changes.push([change, p.metadata?.resourceVersion]),
      onRelist: (pods) => relists.push(pods.map((p) => p.metadata!.name!)),
    });
    expect((await watch.start()).map((p) => p.metadata?.name)).toEqual(['a']);
    for (let i = 0; i < 100 && changes.length < 2; i++) await new Promise((r) => setTimeout(r, 50));
    watch.stop();
    expect(watches).toEqual(['10', '15', '30', '40', '40']);
    expect(relists).toEqual([['b'], ['b', 'c']]);
    expect(changes).toEqual([
      ['MODIFIED', '11'],
      ['DELETED', '41'],
    ]);
    await new Promise((r) => setTimeout(r, 1200));
    expect(watches).toHaveLength(5); // stopped: not taken up again
  });
});
