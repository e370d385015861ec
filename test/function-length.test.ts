import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { longFunctions } from '../scripts/function-length.ts';

const lines = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join('\n');

describe('scripts/function-length.ts', () => {
  test('lists each kind of function over the limit by the name it is known by, and none at or under it', () => {
    const text = [
      `function long() {\n${lines(5)}\n}`,
      `function short() {\n${lines(1)}\n}`,
      `const arrow = () => {\n${lines(5)}\n};`,
      `class Pool {\n  #spawn() {\n${lines(5)}\n  }\n}`,
      `const o = { send: function () {\n${lines(5)}\n} };`,
      `export function exact() {\n${lines(3)}\n}`,
    ].join('\n');
    const found = longFunctions('x.ts', text, 5).map((f) => `${f.name}:${f.line}:${f.lines}`);
    assert.deepEqual(found, ['long:1:7', 'arrow:11:7', 'Pool.#spawn:19:7', 'send:27:7']);
  });

  test('a create… factory that returns an object of methods is left out unless all are asked for', () => {
    const factory = `export function createThingService() {\n${lines(5)}\n  return {\n    run() {},\n    other: () => 1,\n  };\n  function helper() {}\n}`;
    assert.deepEqual(longFunctions('f.ts', factory, 5), []);
    assert.equal(longFunctions('f.ts', factory, 5, true)[0]?.name, 'createThingService');
    // One that returns anything else (an app, a value) is a function like any other.
    const builder = `export function createApp() {\n${lines(5)}\n  return build(v0);\n}`;
    assert.equal(longFunctions('f.ts', builder, 5)[0]?.name, 'createApp');
  });
});
