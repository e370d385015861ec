import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { exportOpenApi } from './export-openapi.ts';

// Lints the served document with the rules of redocly.yaml (stricter than Redocly's recommended
// set); any error or warning fails the run.
const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'openapi-')), 'openapi.json');
fs.writeFileSync(file, JSON.stringify(await exportOpenApi(), null, 2));
const redocly = path.resolve('node_modules/.bin/redocly');
const result = spawnSync(
  redocly,
  ['lint', file, '--format=stylish', `--config=${path.resolve('redocly.yaml')}`, '--max-problems=200'],
  {
    stdio: 'inherit',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  },
);
process.exit(result.status ?? 1);
