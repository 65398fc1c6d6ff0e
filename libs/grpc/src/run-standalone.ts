import { ConfigError, loadConfig, PlatformConfig } from '@platform/config';
import { closeEventBus, getEventBus } from '@platform/events';

interface Closable {
  close(): Promise<void>;
}

/**
 * Entry of a service run as its own process (one pod): validates the environment, boots
 * the service, starts the bus once its subscriptions exist, and shuts down on SIGTERM/SIGINT.
 * The embedded process (scripts/start.js) does the same for all services at once.
 */
export function runStandalone(name: string, bootstrap: (config: PlatformConfig) => Promise<Closable>): void {
  let config: PlatformConfig;
  try {
    config = loadConfig();
  } catch (err) {
    console.error(err instanceof ConfigError ? err.message : err);
    process.exit(2);
  }
  void (async () => {
    const app = await bootstrap(config);
    await getEventBus(config).start();
    const stop = async () => {
      await app.close();
      await closeEventBus();
      process.exit(0);
    };
    process.once('SIGTERM', () => void stop());
    process.once('SIGINT', () => void stop());
  })().catch((err: unknown) => {
    console.error(`${name} failed to start:`, err);
    process.exit(1);
  });
}
