/**
 * The bench's counting phase (PostgreSQL + Redis): the service and the baseline are started again
 * behind counting relays (bench/count-proxy.ts) and sent the same requests one at a time; what each
 * sends PostgreSQL and Redis per request is printed side by side. A fair baseline runs what the
 * service runs: where the two differ, the breakdown says by which statements.
 */
import fs from 'node:fs';
import { benchApplication } from './application-body.ts';
import { type CountingProxy, countingProxy } from './count-proxy.ts';

export interface CountTarget {
  port: number;
  stop(): Promise<void>;
}

export interface CountOptions {
  databaseUrl: string;
  redisUrl: string;
  /** Starts a server whose database and Redis are the URLs given. */
  startService(databaseUrl: string, redisUrl: string): Promise<CountTarget>;
  startBaseline(databaseUrl: string, redisUrl: string): Promise<CountTarget>;
  secret: string;
  limitedSecret: string;
  jobId: string;
  pdf: string;
  scenarios: string[];
  line(figure: string, value: string, target: string, met: boolean | null): void;
}

const REQUESTS: Record<string, number> = {
  consent: 50,
  list: 50,
  read: 50,
  create: 50,
  limited: 50,
  intake: 20,
};

export async function countStatements(options: CountOptions): Promise<void> {
  const pg = await countingProxy(options.databaseUrl, 'postgres');
  const redis = await countingProxy(options.redisUrl, 'redis');
  const viaProxy = (url: string, port: number) => {
    const u = new URL(url);
    u.hostname = '127.0.0.1';
    u.port = String(port);
    return u.toString();
  };
  const dbUrl = viaProxy(options.databaseUrl, pg.port);
  const redisUrl = viaProxy(options.redisUrl, redis.port);
  const pdf = fs.readFileSync(options.pdf);
  let n = 0;

  // An Idempotency-Key where the load generator sends one: on creates and applications, not on slots.
  async function call(port: number, method: string, url: string, secret: string | null, body?: unknown) {
    const res = await fetch(`http://127.0.0.1:${port}${url}`, {
      method,
      headers: {
        ...(secret ? { authorization: `Bearer ${secret}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(method === 'POST' && url !== '/v1/uploads'
          ? { 'idempotency-key': `count-${process.pid}-${++n}` }
          : {}),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, text };
  }

  const requests: Record<string, (port: number) => Promise<number>> = {
    consent: async (p) => (await call(p, 'GET', '/v1/consent-text', options.secret)).status,
    list: async (p) => (await call(p, 'GET', '/v1/jobs?limit=50', options.secret)).status,
    read: async (p) => (await call(p, 'GET', `/v1/jobs/${options.jobId}`, options.secret)).status,
    create: async (p) =>
      (
        await call(p, 'POST', '/v1/jobs', options.secret, {
          title: 'Bench role',
          description: '<p>Bench.</p>',
          category: 'engineering',
        })
      ).status,
    limited: async (p) => (await call(p, 'GET', '/v1/consent-text', options.limitedSecret)).status,
    intake: async (p) => {
      const slot = await call(p, 'POST', '/v1/uploads', options.secret, { bytes: pdf.length });
      const { uploadId, uploadUrl } = JSON.parse(slot.text) as { uploadId: string; uploadUrl: string };
      const url = new URL(uploadUrl);
      const put = await fetch(`http://127.0.0.1:${p}${url.pathname}${url.search}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/pdf' },
        body: pdf,
      });
      await put.arrayBuffer();
      const id = `${process.pid}-${++n}`;
      return (
        await call(
          p,
          'POST',
          `/v1/jobs/${options.jobId}/applications`,
          options.secret,
          benchApplication(`count-${id}@example.com`, uploadId),
        )
      ).status;
    },
  };

  const measure = async (target: CountTarget, name: string) => {
    const run = requests[name]!;
    for (let i = 0; i < 5; i++) await run(target.port);
    await new Promise((r) => setTimeout(r, 200));
    pg.reset();
    redis.reset();
    const statuses = new Map<number, number>();
    const times = REQUESTS[name]!;
    for (let i = 0; i < times; i++) {
      const status = await run(target.port);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    await new Promise((r) => setTimeout(r, 200));
    return { pg: perRequest(pg, times), redis: perRequest(redis, times), statuses };
  };

  const service = await options.startService(dbUrl, redisUrl);
  const baseline = await options.startBaseline(dbUrl, redisUrl);
  try {
    for (const name of options.scenarios) {
      if (!requests[name]) continue;
      // The limited key stays over its limit all along; both sides see it refused from the start.
      const s = await measure(service, name);
      const b = await measure(baseline, name);
      // The baseline looks the key up on every request, as issue 14 defines it; the service may
      // skip the lookup of a key it looked up before while the credentials' generation vouches for it.
      const same = Math.abs(s.pg.total - b.pg.total) < 0.05 && Math.abs(s.redis.total - b.redis.total) < 0.05;
      const noMore = s.pg.total < b.pg.total + 0.05 && s.redis.total < b.redis.total + 0.05;
      options.line(
        `statements per request: ${name}`,
        `SQL ${s.pg.total.toFixed(2)} vs ${b.pg.total.toFixed(2)}, Redis ${s.redis.total.toFixed(2)} vs ${b.redis.total.toFixed(2)}`,
        'service ≤ baseline',
        name === 'limited' ? null : noMore,
      );
      if (!same || process.env.BENCH_COUNT_DETAIL) {
        console.log(`    service  ${describe(s)}\n    baseline ${describe(b)}`);
      }
    }
  } finally {
    await service.stop();
    await baseline.stop();
    await pg.close();
    await redis.close();
  }
}

// The service's instance heartbeat runs on a timer, whatever the requests: not counted.
const BACKGROUND = /^insert into "service_instances"/;

function perRequest(proxy: CountingProxy, times: number) {
  const by = new Map(
    [...proxy.counts()].filter(([k]) => !BACKGROUND.test(k)).map(([k, v]) => [k, v / times]),
  );
  return { total: [...by.values()].reduce((a, b) => a + b, 0), by };
}

function describe(side: {
  pg: ReturnType<typeof perRequest>;
  redis: ReturnType<typeof perRequest>;
  statuses: Map<number, number>;
}) {
  const fmt = (m: Map<string, number>) => [...m].map(([k, v]) => `${k} ${v.toFixed(2)}`).join(', ') || 'none';
  return `answers ${JSON.stringify(Object.fromEntries(side.statuses))}; SQL: ${fmt(side.pg.by)}; Redis: ${fmt(side.redis.by)}`;
}
