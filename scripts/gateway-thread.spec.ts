import path from 'node:path';
import { freePort } from '@platform/testing';

interface GatewayThread {
  close(): Promise<void>;
}
type Start = (config: object, options: { entry: string; onFailure?: (reason: string) => void }) => Promise<GatewayThread>;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startGatewayThread } = require('./gateway-thread.js') as { startGatewayThread: Start };

const entry = path.join(__dirname, 'testing', 'fake-gateway.js');

describe('the embedded platform’s gateway thread', () => {
  it('boots the gateway on a thread of its own, resolves once it is up, and closes it', async () => {
    const apiPort = await freePort();
    const gateway = await startGatewayThread({ apiPort, behaviour: 'ok' }, { entry });
    const { threadId } = (await (await fetch(`http://127.0.0.1:${apiPort}/`)).json()) as { threadId: number };
    expect(threadId).toBeGreaterThan(0); // 0 is the main thread
    await gateway.close();
    await expect(fetch(`http://127.0.0.1:${apiPort}/`)).rejects.toThrow();
  });

  it('rejects with the error of a gateway that fails to boot', async () => {
    await expect(startGatewayThread({ apiPort: await freePort(), behaviour: 'fail-to-boot' }, { entry })).rejects.toThrow(/boot failed on purpose/);
  });

  it('reports a thread that dies after start-up (the platform exits on it)', async () => {
    const reasons: string[] = [];
    await startGatewayThread({ apiPort: await freePort(), behaviour: 'crash-later' }, { entry, onFailure: (reason) => reasons.push(reason) });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(reasons.join('\n')).toMatch(/crashed on purpose/);
  });
});
