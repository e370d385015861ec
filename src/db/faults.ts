/**
 * Which database errors mean "the server or the connection to it is gone" rather than "this
 * statement is wrong": a dropped or terminated session, a server starting or shutting down, a
 * refused or timed-out connect. Those are answered 503 and retried by the client; anything else
 * keeps its own meaning.
 */

// SQLSTATE classes and codes: 08 connection exception, 57P01 admin_shutdown (pg_terminate_backend),
// 57P02 crash_shutdown, 57P03 cannot_connect_now (starting up), 53300 too_many_connections.
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ENOTFOUND',
]);
const MESSAGES = [
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'timeout exceeded when trying to connect',
  'Client was closed and is not queryable',
  'Connection ended unexpectedly',
];

export function isConnectionFault(error: unknown): boolean {
  if (error === null || typeof error !== 'object') return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (SQLSTATES.has(code) || code.startsWith('08') || SOCKET_CODES.has(code)) return true;
  }
  const message = (error as { message?: unknown }).message;
  if (typeof message === 'string' && MESSAGES.some((m) => message.includes(m))) return true;
  // AggregateError from a connect that tried several addresses.
  const errors = (error as { errors?: unknown }).errors;
  return Array.isArray(errors) && errors.length > 0 && errors.every(isConnectionFault);
}

// SQLSTATE 40001 serialization_failure, 40P01 deadlock_detected: the transaction lost a race with
// another one and was rolled back whole; running it again is what PostgreSQL asks for.
const RACE_LOST = new Set(['40001', '40P01']);

/** Whether `error` is a serialization failure or a deadlock: the transaction may simply run again. */
export function isSerializationFailure(error: unknown): boolean {
  if (error === null || typeof error !== 'object') return false;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && RACE_LOST.has(code);
}
