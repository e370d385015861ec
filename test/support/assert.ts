import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';

/** The spec's error body: `{ error: { code, message, requestId, ...extras } }`. */
export interface ErrorBody {
  code: string;
  message: string;
  requestId: string;
  [k: string]: unknown;
}

type Answer = Pick<LightMyRequestResponse, 'statusCode' | 'body' | 'headers' | 'json'>;

/** The error of an error answer, unchecked (assertError checks it). */
export function errorOf(res: Pick<LightMyRequestResponse, 'json'>): ErrorBody {
  return res.json().error;
}

/**
 * Asserts an error answer in the spec's shape: the status, a JSON body holding only `error`, the
 * code, a non-empty message, a request id that the x-request-id header repeats. Answers the error.
 */
export function assertError(res: Answer, status: number, code: string): ErrorBody {
  assert.equal(res.statusCode, status, res.body);
  assert.match(String(res.headers['content-type']), /^application\/json/, res.body);
  const body = res.json();
  assert.deepEqual(Object.keys(body), ['error'], res.body);
  const error = body.error as ErrorBody;
  assert.equal(error.code, code, res.body);
  assert.equal(typeof error.message, 'string');
  assert.ok(error.message.length > 0, 'the message says something');
  assert.match(error.requestId, /^req_[0-9a-z]+$/);
  assert.equal(res.headers['x-request-id'], error.requestId, 'the header repeats the request id');
  return error;
}

/** A 400 bad_request whose message matches every pattern; answers the error. */
export function assertBadRequest(res: Answer, ...patterns: RegExp[]): ErrorBody {
  const error = assertError(res, 400, 'bad_request');
  for (const pattern of patterns) assert.match(error.message, pattern);
  return error;
}

/** No X-RateLimit-* header on the answer. */
export function assertNoRateHeaders(res: Pick<LightMyRequestResponse, 'headers' | 'statusCode'>): void {
  for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
    assert.equal(res.headers[name], undefined, `${name} on a ${res.statusCode}`);
  }
}
