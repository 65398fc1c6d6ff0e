import { ConsoleLogger, LogLevel } from '@nestjs/common';
import { PlatformConfig } from '@platform/config';
import { currentRequestId, currentService } from './request-context';

const LEVELS: LogLevel[] = ['error', 'warn', 'log', 'debug', 'verbose'];

/**
 * Nest's console logger at LOG_LEVEL, in LOG_FORMAT: `json` writes one object per line with the
 * service and, within a request, its id (`requestId`, from the gateway through gRPC metadata), which a
 * log collector can join across services; `text` is Nest's coloured lines.
 */
export class PlatformLogger extends ConsoleLogger {
  constructor(
    private readonly service: string,
    config: PlatformConfig,
  ) {
    super({ logLevels: LEVELS.slice(0, LEVELS.indexOf(config.logLevel) + 1), json: config.logFormat === 'json' });
  }

  protected override getJsonLogObject(
    message: unknown,
    options: { context: string; logLevel: LogLevel; writeStreamType?: 'stdout' | 'stderr'; errorStack?: unknown },
  ) {
    const requestId = currentRequestId();
    // the embedded process runs every service with one logger: within a gRPC call, the call's service
    return { ...super.getJsonLogObject(message, options), service: currentService() ?? this.service, ...(requestId ? { requestId } : {}) };
  }
}
