import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type AppError, badRequest, internal } from '../domain/errors.ts';
import { type IdempotencyService, requestHash } from '../domain/idempotency/idempotency-service.ts';
import type { Seal } from '../domain/seal.ts';
import type { ErrorObserver } from './error-handler.ts';
import './types.ts';

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/**
 * Idempotency-Key on POST routes. The key is claimed before the handler (its own transaction);
 * the answer is stored by the handler's `seal`, inside the transaction of the write it answers.
 */
export function registerIdempotency(app: FastifyInstance, service: IdempotencyService): ErrorObserver {
  app.decorateRequest('idempotencyRecord', null);
  app.decorateRequest('idempotencySettled', false);
  app.addHook('preHandler', async (request, reply) => claimOrReplay(service, request, reply));
  app.addHook('onResponse', async (request) => {
    if (request.idempotencyRecord === null) return;
    if (!request.idempotencySettled) {
      await service
        .release(request.idempotencyRecord)
        .catch((err) => request.log.warn({ err }, 'idempotency release failed'));
    }
    service.settled();
  });
  return settleRefusal(service);
}

/** The request's Idempotency-Key, null when it has none; refuses a missing required or malformed one. */
function keyOf(request: FastifyRequest, mode: 'required' | 'optional'): string | null {
  const raw = request.headers['idempotency-key'];
  if (raw === undefined) {
    if (mode === 'required')
      throw badRequest('This route requires an Idempotency-Key header.', { field: 'Idempotency-Key' });
    return null;
  }
  const key = Array.isArray(raw) ? raw[0]! : raw;
  if (!KEY_PATTERN.test(key)) {
    throw badRequest('Idempotency-Key must be 1 to 255 visible ASCII characters.', {
      field: 'Idempotency-Key',
    });
  }
  return key;
}

/** Before the handler: claim the key, or answer at once with the stored answer of the first request. */
async function claimOrReplay(
  service: IdempotencyService,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply | undefined> {
  const mode = request.routeOptions.config.idempotency;
  if (!mode || request.principal === null) return;
  const key = keyOf(request, mode);
  if (key === null) return;
  const route = `${request.method} ${request.routeOptions.url}`;
  const path = request.url.split('?')[0]!;
  const claim = await service.claim(
    { accountId: request.principal.accountId, route, key },
    requestHash(request.method, path, request.body ?? null),
  );
  if (claim.kind === 'replay') {
    request.idempotencySettled = true;
    reply
      .code(claim.statusCode)
      .header('idempotent-replayed', 'true')
      .type('application/json; charset=utf-8')
      .send(claim.body);
    return reply;
  }
  request.idempotencyRecord = claim.record;
}

/**
 * A refusal wrote nothing, so it is stored on its own: the same request gets the same answer.
 * 5xx and 429 are not kept: they describe the moment, and the retry deserves a fresh try — so the
 * claim is freed before the client sees the answer, and an immediate retry is not told "running".
 */
function settleRefusal(service: IdempotencyService): ErrorObserver {
  return async (request: FastifyRequest, error: AppError, rendered) => {
    const record = request.idempotencyRecord;
    if (record === null) return;
    // When the database itself is what failed, the record cannot be written either: the claim's
    // short lease (IDEMPOTENCY_LOCK_MS) then frees it, and the client still gets its answer.
    try {
      if (error.status >= 500 || error.status === 429) await service.release(record);
      else await service.completeAlone(record, rendered.statusCode, rendered.body);
    } catch (err) {
      request.log.warn({ err }, 'idempotency record could not be settled');
    }
    request.idempotencySettled = true;
  };
}

export interface Answer<T> {
  /** Serialises the answer and, under an Idempotency-Key, stores it with the write's transaction. */
  seal: Seal<T>;
  send(reply: FastifyReply): FastifyReply;
}

export function answerWith<T>(
  request: FastifyRequest,
  service: IdempotencyService,
  status: number | ((result: T) => number),
  toBody: (result: T) => unknown,
): Answer<T> {
  let body: string | null = null;
  let statusCode = typeof status === 'number' ? status : 0;
  return {
    async seal(trx, result) {
      if (typeof status === 'function') statusCode = status(result);
      body = JSON.stringify(toBody(result));
      if (request.idempotencyRecord !== null) {
        await service.complete(trx, request.idempotencyRecord, statusCode, body);
      }
    },
    send(reply) {
      if (body === null) throw internal('The answer was not sealed.');
      request.idempotencySettled = true;
      return reply.code(statusCode).type('application/json; charset=utf-8').send(body);
    },
  };
}
