import type { NextFunction, Request, Response } from 'express';
import { platformMetrics } from './platform-metrics';

/**
 * Express middleware counting every answered request by method, route (the matched route's pattern, so
 * ids do not make series of their own; `unmatched` otherwise) and status, with its latency.
 */
export function httpMetrics(service: string) {
  const requests = platformMetrics.httpRequests();
  const duration = platformMetrics.httpDuration();
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const route = (req.route as { path?: string } | undefined)?.path;
      const labels = { service, method: req.method, route: route ? `${req.baseUrl}${route}` : 'unmatched', status: String(res.statusCode) };
      requests.inc(labels);
      duration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
    });
    next();
  };
}
