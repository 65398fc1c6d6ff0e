import { RunningPlatform } from './platform-process';
import { WebhookReceiver } from './webhook-receiver';

export default async function globalTeardown(): Promise<void> {
  const g = globalThis as Record<string, unknown>;
  await (g.__PLATFORM__ as RunningPlatform | undefined)?.stop();
  await (g.__WEBHOOK_RECEIVER__ as WebhookReceiver | undefined)?.close();
}
