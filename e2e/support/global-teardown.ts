import { RunningPlatform } from './platform-process';

export default async function globalTeardown(): Promise<void> {
  const platform = (globalThis as Record<string, unknown>).__PLATFORM__ as RunningPlatform | undefined;
  await platform?.stop();
}
