/**
 * The benchmark's load generator, run in its own process by bench/run.ts so that it never shares
 * an event loop with the server it measures. Takes one JSON argument and prints one JSON line:
 *   { kind: 'http', url, method, headers, body, connections, seconds, uniqueKey? }   (autocannon)
 *   { kind: 'intake', base, auth, jobId, pdf, connections, seconds }  (slot → PUT → application)
 * Output: { rps, count, p50, p99, statuses: { [code]: count }, errors }.
 */
import fs from 'node:fs';
import http from 'node:http';
import autocannon from 'autocannon';
import { benchApplication } from './application-body.ts';

interface HttpSpec {
  kind: 'http';
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  connections: number;
  seconds: number;
  /** Each request gets a fresh Idempotency-Key. */
  uniqueKey?: boolean;
}
interface IntakeSpec {
  kind: 'intake';
  base: string;
  auth: string;
  jobId: string;
  pdf: string;
  connections: number;
  seconds: number;
}
type Spec = HttpSpec | IntakeSpec;

interface Outcome {
  rps: number;
  /** Requests answered (the intake: applications accepted). */
  count: number;
  p50: number;
  p99: number;
  statuses: Record<string, number>;
  errors: number;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function runHttp(spec: HttpSpec): Promise<Outcome> {
  const statuses: Record<string, number> = {};
  const headers = { ...spec.headers };
  if (spec.uniqueKey) headers['idempotency-key'] = 'bench-[<id>]';
  const result = await autocannon({
    url: spec.url,
    method: spec.method,
    headers,
    ...(spec.body ? { body: spec.body } : {}),
    connections: spec.connections,
    duration: spec.seconds,
    idReplacement: spec.uniqueKey === true,
  });
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) {
    statuses[code] = stat.count;
  }
  return {
    rps: result.requests.total / spec.seconds,
    count: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    statuses,
    errors: result.errors + result.timeouts,
  };
}

async function runIntake(spec: IntakeSpec): Promise<Outcome> {
  const pdf = fs.readFileSync(spec.pdf);
  const base = new URL(spec.base);
  const agent = new http.Agent({ keepAlive: true, maxSockets: spec.connections * 2 });
  const statuses: Record<string, number> = {};
  let errors = 0;
  const call = (method: string, path: string, headers: Record<string, string>, body: Buffer | string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        {
          host: base.hostname,
          port: base.port,
          method,
          path,
          headers: { ...headers, 'content-length': Buffer.byteLength(body) },
          agent,
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk) => {
            text += chunk;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  const latencies: number[] = [];
  const until = performance.now() + spec.seconds * 1000;
  let n = 0;
  const loop = async () => {
    while (performance.now() < until) {
      const start = performance.now();
      n += 1;
      const id = `${process.pid}-${n}-${Math.random().toString(36).slice(2)}`;
      try {
        const json = { authorization: spec.auth, 'content-type': 'application/json' };
        const slot = await call('POST', '/v1/uploads', json, JSON.stringify({ bytes: pdf.length }));
        if (slot.status !== 201) {
          statuses[slot.status] = (statuses[slot.status] ?? 0) + 1;
          continue;
        }
        const { uploadId, uploadUrl } = JSON.parse(slot.body) as { uploadId: string; uploadUrl: string };
        const url = new URL(uploadUrl);
        const put = await call('PUT', url.pathname + url.search, { 'content-type': 'application/pdf' }, pdf);
        if (put.status !== 200) {
          statuses[`PUT ${put.status}`] = (statuses[`PUT ${put.status}`] ?? 0) + 1;
          continue;
        }
        const answer = await call(
          'POST',
          `/v1/jobs/${spec.jobId}/applications`,
          { ...json, 'idempotency-key': `bench-${id}` },
          JSON.stringify(benchApplication(`c-${id}@example.com`, uploadId)),
        );
        statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
        if (answer.status === 201) latencies.push(performance.now() - start);
      } catch {
        errors += 1;
      }
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: spec.connections }, loop));
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    rps: latencies.length / elapsed,
    count: latencies.length,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    statuses,
    errors,
  };
}

const spec = JSON.parse(process.argv[2] ?? '{}') as Spec;
const outcome = spec.kind === 'intake' ? await runIntake(spec) : await runHttp(spec);
process.stdout.write(`${JSON.stringify(outcome)}\n`);
