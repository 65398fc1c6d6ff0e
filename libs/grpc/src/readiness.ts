import { Injectable } from '@nestjs/common';

export type ReadinessCheck = () => Promise<boolean>;

/** What a service must have working before its health check says SERVING (database, bus…). */
@Injectable()
export class Readiness {
  private readonly checks = new Map<string, ReadinessCheck>();

  add(name: string, check: ReadinessCheck): void {
    this.checks.set(name, check);
  }

  /** Names of the checks that fail now; empty means ready. */
  async failing(): Promise<string[]> {
    const results = await Promise.all([...this.checks].map(async ([name, check]) => ((await check().catch(() => false)) ? undefined : name)));
    return results.filter((n): n is string => n !== undefined);
  }
}
