import fs from 'node:fs';
import type { Route } from '../types.ts';

/** The job form's description toolbar, a static file beside this module, read once at start-up. */
const EDITOR_SCRIPT = fs.readFileSync(new URL('./description-editor.js', import.meta.url), 'utf8');

/** GET /assets/console-editor.js: the description toolbar (the form works without it). */
export const consoleEditorAsset: Route = (app) => {
  app.get('/assets/console-editor.js', { schema: { hide: true } }, async (_request, reply) =>
    reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(EDITOR_SCRIPT),
  );
};
