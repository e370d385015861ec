import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

/**
 * Issue 26 item 6: docs/architecture.md can't drift from the tree without a test failing: every
 * folder of src/ (and of src/http/) is named in it as `src/<folder>/`, and every domain area by
 * its name in the list of areas.
 */

const root = path.resolve(import.meta.dirname, '..');
const doc = fs.readFileSync(path.join(root, 'docs', 'architecture.md'), 'utf8');
const folders = (dir: string) =>
  fs
    .readdirSync(path.join(root, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

test('every folder of src/ and src/http/ is in docs/architecture.md', () => {
  const missing = [
    ...folders('src').map((name) => `src/${name}/`),
    ...folders('src/http').map((name) => `src/http/${name}/`),
  ].filter((named) => !doc.includes(named));
  assert.deepEqual(missing, [], 'add these to the Layers section');
});

test('every domain area is in the list of areas', () => {
  const areas = doc.slice(doc.indexOf('src/domain/<area>/'), doc.indexOf('src/domain/errors.ts'));
  assert.ok(areas.length > 0, 'the Layers section lists the areas after `src/domain/<area>/`');
  const missing = folders('src/domain').filter((area) => !new RegExp(`\\b${area}\\b`).test(areas));
  assert.deepEqual(missing, [], 'add these areas to the list');
});
