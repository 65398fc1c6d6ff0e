import { E2eMode, startPlatform } from './platform-process';

/** Boots one platform for the whole e2e run, in the mode E2E_MODE names (default embedded). */
export default async function globalSetup(): Promise<void> {
  const mode = (process.env.E2E_MODE ?? 'embedded') as E2eMode;
  if (mode !== 'embedded' && mode !== 'production') throw new Error(`E2E_MODE must be embedded or production, not ${mode}`);
  const platform = await startPlatform(mode);
  (globalThis as Record<string, unknown>).__PLATFORM__ = platform;
  process.env.E2E_BASE_URL = platform.baseUrl;
  process.env.E2E_STREAM_URL = platform.streamUrl;
  process.env.E2E_TOKEN_ID = platform.tokenId;
  process.env.E2E_TOKEN_SECRET = platform.tokenSecret;
  process.env.E2E_DATA_DIR = platform.env.DATA_DIR;
  process.env.E2E_PLATFORM_ENV = JSON.stringify(platform.env);
  process.env.E2E_LOG_FILE = platform.logFile;
  console.log(`\ne2e: platform up in ${mode} mode at ${platform.baseUrl} (log ${platform.logFile})`);
}
