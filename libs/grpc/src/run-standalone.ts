import { ConfigError, loadConfig, PlatformConfig } from '@platform/config';
import { closeEventBus, getEventBus } from '@platform/events';
import { useLeanAsyncResourceBind } from './async-resource-bind';
import { handleShutdownSignals } from './shutdown';

interface Closable {
  close(): Promise<void>;
}

/**
 * Entry of a service run as its own process (one pod): validates the environment, boots
 * the service, starts the bus once its subscriptions exist, and on SIGTERM/SIGINT closes the
 * bus and then the service (its shutdown hooks: stop taking work, hand work back, end
 * children) within SHUTDOWN_DEADLINE_MS (handleShutdownSignals). A signal during the start stops the
 * service once it is up. The embedded process (scripts/start.js) does the same for all
 * services at once.
 */
export function runStandalone(name: string, bootstrap: (config: PlatformConfig) => Promise<Closable>): void {
  useLeanAsyncResourceBind(); // before any gRPC call: see async-resource-bind.ts
  let config: PlatformConfig;
  try {
    config = loadConfig();
  } catch (err) {
    console.error(err instanceof ConfigError ? err.message : err);
    process.exit(2);
  }
  const started = (async () => {
    const app = await bootstrap(config);
    await getEventBus(config).start();
    return app;
  })();
  handleShutdownSignals(async () => {
    const app = await started;
    // delivery stops first (a handler must not run against a service closing under it; events
    // not handled stay with the broker), then the service closes
    await closeEventBus();
    await app.close();
  });
  started.catch((err: unknown) => {
    console.error(`${name} failed to start:`, err);
    process.exit(1);
  });
}
