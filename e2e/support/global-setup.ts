import os from 'node:os';
import path from 'node:path';
import { E2eMode, startPlatform } from './platform-process';
import { startWebhookReceiver } from './webhook-receiver';

export const E2E_WEBHOOK_SECRET = 'e2e-webhook-secret';

/**
 * Boots one platform for the whole e2e run, in the mode E2E_MODE names (default embedded),
 * with a webhook receiver standing in for the user's endpoint.
 */
export default async function globalSetup(): Promise<void> {
  const given = process.env.E2E_MODE ?? 'embedded';
  if (given !== 'embedded' && given !== 'production') throw new Error(`E2E_MODE must be embedded or production, not ${given}`);
  const mode: E2eMode = given;
  const webhookLog = path.join(os.tmpdir(), `platform-e2e-webhooks-${process.pid}-${Date.now()}.jsonl`);
  const receiver = await startWebhookReceiver(webhookLog);
  const platform = await startPlatform(mode, {
    WEBHOOK_URL: receiver.url,
    WEBHOOK_SECRET: E2E_WEBHOOK_SECRET,
    WEBHOOK_RETRY_BASE_MS: '200',
    WEBHOOK_RETRY_MAX_MS: '2000',
    TRANSCODER_LEASE_SECONDS: '5',
    TRANSCODER_POLL_MS: '200',
    INPUT_DOWNLOAD_IDLE_SECONDS: '10',
    // temporary master MP4s expire within a test (e2e/static-renditions.e2e-spec.ts)
    MASTER_ACCESS_SECONDS: '15',
  });
  const g = globalThis as Record<string, unknown>;
  g.__PLATFORM__ = platform;
  g.__WEBHOOK_RECEIVER__ = receiver;
  process.env.E2E_BASE_URL = platform.baseUrl;
  process.env.E2E_STREAM_URL = platform.streamUrl;
  process.env.E2E_IMAGE_URL = platform.imageUrl;
  process.env.E2E_COLLECTOR_URL = platform.collectorUrl;
  process.env.E2E_SPACES_URL = platform.spacesUrl;
  process.env.E2E_TOKEN_ID = platform.tokenId;
  process.env.E2E_TOKEN_SECRET = platform.tokenSecret;
  process.env.E2E_DATA_DIR = platform.env.DATA_DIR;
  process.env.E2E_PLATFORM_ENV = JSON.stringify(platform.env);
  process.env.E2E_LOG_FILE = platform.logFile;
  process.env.E2E_PLATFORM_PID = String(platform.pid);
  process.env.E2E_WEBHOOK_LOG = webhookLog;
  process.env.E2E_WEBHOOK_SECRET = E2E_WEBHOOK_SECRET;
  console.log(`\ne2e: platform up in ${mode} mode at ${platform.baseUrl} (log ${platform.logFile})`);
}
