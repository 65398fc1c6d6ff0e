import express from 'express';
import { AddressInfo } from 'node:net';
import { Counter, Registry } from 'prom-client';
import { httpMetrics } from './http-metrics';
import { addMetricsSource, MetricsServer, metricsText, startMetricsServer } from './metrics-server';
import { platformMetrics } from './platform-metrics';
import { observeGauge } from './registry';

describe('the metrics of a process', () => {
  let server: MetricsServer;
  beforeAll(async () => (server = await startMetricsServer(0, '127.0.0.1')));
  afterAll(() => server.close());

  it('answers GET /metrics in Prometheus text format (process metrics and the platform’s), anything else 404', async () => {
    platformMetrics.webhookAttempts().inc({ service: 'webhooks', outcome: 'delivered' }, 3);
    const res = await fetch(`http://127.0.0.1:${server.port}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    expect(text).toContain('# TYPE webhook_delivery_attempts_total counter');
    expect(text).toContain('webhook_delivery_attempts_total{service="webhooks",outcome="delivered"} 3');
    expect(text).toMatch(/^process_cpu_user_seconds_total \d/m);
    expect((await fetch(`http://127.0.0.1:${server.port}/other`)).status).toBe(404);
    // one server per process, whatever number of services asks for it
    expect((await startMetricsServer(0, '127.0.0.1')).port).toBe(server.port);
  });

  it('counts HTTP requests by route pattern and status, with their latency', async () => {
    const app = express();
    app.use(httpMetrics('gateway'));
    app.get('/video/v1/assets/:id', (_req, res) => void res.status(404).json({}));
    const http = app.listen(0, '127.0.0.1');
    await new Promise((r) => http.once('listening', r));
    const port = (http.address() as AddressInfo).port;
    await fetch(`http://127.0.0.1:${port}/video/v1/assets/abc`);
    await fetch(`http://127.0.0.1:${port}/video/v1/assets/def`);
    await fetch(`http://127.0.0.1:${port}/nowhere`);
    http.close();
    const text = await metricsText();
    expect(text).toContain('http_requests_total{service="gateway",method="GET",route="/video/v1/assets/:id",status="404"} 2');
    expect(text).toContain('http_requests_total{service="gateway",method="GET",route="unmatched",status="404"} 1');
    expect(text).toMatch(/http_request_duration_seconds_count\{service="gateway",method="GET",route="\/video\/v1\/assets\/:id",status="404"\} 2/);
  });

  it('merges another thread’s metrics into the answer (the embedded gateway’s worker)', async () => {
    const other = new Registry();
    new Counter({ name: 'http_requests_total', help: 'x', labelNames: ['service', 'method', 'route', 'status'], registers: [other] }).inc(
      { service: 'gateway', method: 'GET', route: '/healthz', status: '200' },
      7,
    );
    addMetricsSource(() => other.getMetricsAsJSON());
    expect(await metricsText()).toContain('http_requests_total{service="gateway",method="GET",route="/healthz",status="200"} 7');
  });

  it('reads an observed gauge at scrape time from every source; a failing source adds nothing; a stopped one is not read', async () => {
    let depth = 4;
    const stopQueue = observeGauge('test_queue_jobs', 'queued', ['phase'], () => Promise.resolve([{ labels: { phase: 'ladder' }, value: depth }]));
    const stopOther = observeGauge('test_queue_jobs', 'queued', ['phase'], () => Promise.resolve([{ labels: { phase: 'ingest' }, value: 1 }]));
    const stopBroken = observeGauge('test_queue_jobs', 'queued', ['phase'], () => Promise.reject(new Error('database gone')));
    expect(await metricsText()).toMatch(/^test_queue_jobs\{phase="ladder"\} 4$/m);
    depth = 9;
    const text = await metricsText();
    expect(text.split('\n').filter((l) => l.startsWith('test_queue_jobs'))).toEqual(['test_queue_jobs{phase="ladder"} 9', 'test_queue_jobs{phase="ingest"} 1']);
    stopOther();
    stopQueue();
    stopBroken();
    expect((await metricsText()).split('\n').filter((l) => l.startsWith('test_queue_jobs'))).toEqual([]);
  });
});
