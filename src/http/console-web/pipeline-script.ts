import fs from 'node:fs';
import type { App } from '../types.ts';

/** The applications table's script, a static file beside this module, read once at start-up. */
const PIPELINE_SCRIPT = fs.readFileSync(new URL('./pipeline.js', import.meta.url), 'utf8');

/** GET /assets/pipeline.js: select-all and a selected count on the applications table (it works without). */
export function pipelineScriptAsset(app: App): void {
  app.get('/assets/pipeline.js', { schema: { hide: true } }, async (_request, reply) =>
    reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(PIPELINE_SCRIPT),
  );
}
