import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { WEIGHTS } from '../src/domain/matches/rank.ts';
import {
  CURRENT_RANKER,
  inputsDigest,
  RANKER_VERSION,
  rankerVersionOf,
  runVersion,
} from '../src/domain/matches/ranker-version.ts';

/** rankerVersion is derived from the ranking's weights and code (extensions.md §7, issue 31). */
describe('rankerVersion', () => {
  test('is the digest of the current definition, stable for the same definition', () => {
    assert.match(RANKER_VERSION, /^lex-[0-9a-f]{16}$/);
    assert.equal(rankerVersionOf({ ...CURRENT_RANKER }), RANKER_VERSION);
    assert.equal(
      rankerVersionOf({ ...CURRENT_RANKER, weights: Object.fromEntries(Object.entries(WEIGHTS).reverse()) }),
      RANKER_VERSION,
      'the order the weights are written in does not matter',
    );
  });

  test('a weight change moves it', () => {
    for (const name of Object.keys(WEIGHTS) as (keyof typeof WEIGHTS)[]) {
      const weights = { ...WEIGHTS, [name]: WEIGHTS[name] + 0.01 };
      assert.notEqual(rankerVersionOf({ ...CURRENT_RANKER, weights }), RANKER_VERSION, name);
    }
    assert.notEqual(rankerVersionOf({ ...CURRENT_RANKER, floor: 0.31 }), RANKER_VERSION);
    assert.notEqual(rankerVersionOf({ ...CURRENT_RANKER, semanticWeight: 0.2 }), RANKER_VERSION);
  });

  test('a change of the ranking code moves it; the real source is read', () => {
    assert.ok(CURRENT_RANKER.sources[0]?.includes('export function scoreCandidate('), 'rank.ts itself');
    const sources = [...CURRENT_RANKER.sources];
    sources[0] = (sources[0] as string).replace('(index <= 1 ? 1 : 0.8)', '(index <= 1 ? 1 : 0.7)');
    assert.notEqual(sources[0], CURRENT_RANKER.sources[0]);
    assert.notEqual(rankerVersionOf({ ...CURRENT_RANKER, sources }), RANKER_VERSION);
  });

  test('a semantic run names its model; the inputs digest follows the inputs', () => {
    assert.equal(runVersion(null), RANKER_VERSION);
    assert.equal(runVersion('e5-small'), `${RANKER_VERSION}+emb:e5-small`);
    const a = inputsDigest(RANKER_VERSION, 'role1', { skills: ['go'] });
    assert.equal(a, inputsDigest(RANKER_VERSION, 'role1', { skills: ['go'] }));
    assert.notEqual(a, inputsDigest(RANKER_VERSION, 'role2', { skills: ['go'] }));
    assert.notEqual(a, inputsDigest(RANKER_VERSION, 'role1', { skills: ['rust'] }));
  });
});
