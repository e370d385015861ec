import type { FastifyInstance } from 'fastify';
import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';

/**
 * Prometheus metrics of this app instance. Labels are the route template, the method and the
 * status: never a key, an id or anything of a candidate's. The queue, webhook, PDF-pool and sweep
 * metrics are ops-metrics.ts's.
 */
export function registerMetrics(app: FastifyInstance, role: string): Registry {
  const registry = new Registry();
  // Node's process metrics (process_resident_memory_bytes among them) carry the process's ROLE.
  collectDefaultMetrics({ register: registry, labels: { role } });
  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered',
    labelNames,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from request to response',
    labelNames,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  // A callback hook: it runs on every request and awaits nothing.
  app.addHook('onResponse', (request, reply, done) => {
    const labels = {
      method: request.method,
      route: request.routeOptions.url ?? 'unmatched',
      status: String(reply.statusCode),
    };
    requests.inc(labels);
    latency.observe(labels, reply.elapsedTime / 1000);
    done();
  });
  return registry;
}
