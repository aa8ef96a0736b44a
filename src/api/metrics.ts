/** Prometheus metrics, one registry per app instance (no global registry, so tests isolate). */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { ProxyStats } from '../scrape/net/proxy-health.js';

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

/**
 * Per upstream proxy, read from the proxy health when scraped: requests, connection
 * failures and block pages (counters), and whether it sits out a bench (1) or not (0).
 * `proxy` is its label (`type/country/host:port`), never its credentials.
 */
export function registerProxyMetrics(registry: Registry, stats: () => ProxyStats[]): void {
  const counter = (name: string, help: string, field: 'requests' | 'failures' | 'blocks') =>
    new Counter({
      name,
      help,
      labelNames: ['proxy'],
      registers: [registry],
      collect() {
        this.reset();
        for (const s of stats()) this.inc({ proxy: s.label }, s[field]);
      },
    });
  counter('pagegrab_proxy_requests_total', 'Attempts through each upstream proxy', 'requests');
  counter(
    'pagegrab_proxy_failures_total',
    'Attempts that failed to connect through each upstream proxy',
    'failures',
  );
  counter(
    'pagegrab_proxy_blocks_total',
    'Answers through each upstream proxy that were block pages',
    'blocks',
  );
  new Gauge({
    name: 'pagegrab_proxy_benched',
    help: '1 while an upstream proxy sits out its bench after repeated failures, else 0',
    labelNames: ['proxy'],
    registers: [registry],
    collect() {
      this.reset();
      for (const s of stats()) this.set({ proxy: s.label }, s.state === 'benched' ? 1 : 0);
    },
  });
}
