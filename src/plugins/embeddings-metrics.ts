import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';
import type * as PromClient from 'prom-client';
import type { EmbeddingObserver, EmbeddingOutcome } from '../domain/matches/embeddings.ts';

/** What the app watches: the match service's embedding provider (off: no model, nothing happens). */
export interface EmbeddingsSource {
  readonly embeddingModel: string | null;
  observeEmbeddings(observer: EmbeddingObserver): void;
}

const OUTCOMES: readonly EmbeddingOutcome[] = ['ok', 'error', 'timeout'];

/**
 * Makes matching's embedding provider visible to an operator: one warn line per generation that
 * ranked lexically because the provider failed (the reason and the model, never a text or an id),
 * and, when /metrics can be read, `embeddings_requests_total{outcome}` and
 * `embeddings_fallbacks_total`. prom-client is required only with a registry (METRICS_TOKEN).
 */
export function watchEmbeddings(
  app: FastifyInstance,
  source: EmbeddingsSource,
  registry: PromClient.Registry | null,
): void {
  const model = source.embeddingModel;
  if (model === null) return;
  let requests: PromClient.Counter<'outcome'> | null = null;
  let fallbacks: PromClient.Counter | null = null;
  if (registry !== null) {
    const { Counter } = createRequire(import.meta.url)('prom-client') as typeof PromClient;
    requests = new Counter({
      name: 'embeddings_requests_total',
      help: 'Calls to the matching embedding provider (EMBEDDINGS_URL), by outcome: ok, error, timeout',
      labelNames: ['outcome'] as const,
      registers: [registry],
    });
    fallbacks = new Counter({
      name: 'embeddings_fallbacks_total',
      help: 'Match generations that ranked lexically because the embedding provider failed',
      registers: [registry],
    });
    // Every series from the start, so that a rate or an alert has a zero to compare with.
    for (const outcome of OUTCOMES) requests.inc({ outcome }, 0);
  }
  source.observeEmbeddings({
    call: (outcome) => requests?.inc({ outcome }),
    fallback: (reason) => {
      fallbacks?.inc();
      app.log.warn({ model, reason }, 'embeddings unavailable: this generation ranks lexically');
    },
  });
}
