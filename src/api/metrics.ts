/** Prometheus metrics, one registry per app instance (no global registry, so tests isolate). */
import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';

export interface Metrics {
  registry: Registry;
  httpRequests: Counter<'method' | 'route' | 'status'>;
  httpDuration: Histogram<'method' | 'route'>;
  scrapes: Counter<'engine' | 'output' | 'outcome'>;
  creditsCharged: Counter;
  webhookAttempts: Counter<'outcome'>;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'pagegrab_' });
  return {
    registry,
    httpRequests: new Counter({
      name: 'pagegrab_http_requests_total',
      help: 'HTTP requests answered, by route and status',
      labelNames: ['method', 'route', 'status'],
      registers: [registry],
    }),
    httpDuration: new Histogram({
      name: 'pagegrab_http_request_duration_seconds',
      help: 'Time to answer an HTTP request',
      labelNames: ['method', 'route'],
      buckets: [0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers: [registry],
    }),
    scrapes: new Counter({
      name: 'pagegrab_scrapes_total',
      help: 'Scrapes run, by engine, output type and outcome',
      labelNames: ['engine', 'output', 'outcome'],
      registers: [registry],
    }),
    creditsCharged: new Counter({
      name: 'pagegrab_credits_charged_total',
      help: 'Credits charged for answered scrapes',
      registers: [registry],
    }),
    webhookAttempts: new Counter({
      name: 'pagegrab_webhook_attempts_total',
      help: 'Webhook delivery attempts by how they ended: delivered, retry, failed',
      labelNames: ['outcome'],
      registers: [registry],
    }),
  };
}
