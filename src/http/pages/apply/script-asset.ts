import fs from 'node:fs';
import type { App } from '../../types.ts';

/** The page's script, a static file beside this module, read once at start-up. */
const APPLY_SCRIPT = fs.readFileSync(new URL('./apply.js', import.meta.url), 'utf8');

/** GET /assets/apply.js: the form's progressive enhancement (the form works without it). */
export function applyScriptAsset(app: App): void {
  app.get('/assets/apply.js', { schema: { hide: true } }, async (_request, reply) =>
    reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(APPLY_SCRIPT),
  );
}
