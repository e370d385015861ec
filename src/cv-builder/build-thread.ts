// Worker-thread entry of the build runner (runner.ts): builds one virtual CV per message, so a
// slow or hostile text layer costs this thread, never the HTTP event loop.

import { parentPort } from 'node:worker_threads';
import { buildVirtualCv } from './index.ts';
import type { BuildReply, BuildRequest } from './runner.ts';

parentPort?.on('message', (request: BuildRequest) => {
  let reply: BuildReply;
  try {
    reply = { id: request.id, ok: true, document: buildVirtualCv(request.pages, request.prior) };
  } catch (error) {
    reply = { id: request.id, ok: false, error: error instanceof Error ? error.name : 'unknown error' };
  }
  parentPort?.postMessage(reply);
});

// Modules loaded: the runner starts a build's deadline only from here.
parentPort?.postMessage({ ready: true });
