// Ranking quality on the labelled set (test/fixtures/matches/, made by scripts/make-match-set.ts):
// every pool CV is drawn to PDF (PDFKit), checked and parsed by the service's own PDF check and
// built into a virtual CV, then profiled exactly as the build-cv task does; each role is ranked
// against the whole pool by the ranking the generation task uses (relevance floor included).
//
// Prints nDCG@10 (gain 2^grade − 1, ideal over every judged CV) and recall@20 (share of the CVs
// graded 2 or 3 found in the first 20) per role and overall, for the tuned and the held-out roles
// separately. Usage: npm run matches:quality [-- --json]

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildVirtualCv, type CvLanguage } from '../src/cv-builder/index.ts';
import { type CandidateProfile, candidateProfile, roleProfile } from '../src/domain/matches/profile.ts';
import { rankCandidates } from '../src/domain/matches/rank.ts';
import { createCvChecker, type PdfPage } from '../src/pdf/cv-check.ts';
import judgements from '../test/fixtures/matches/judgements.json' with { type: 'json' };
import pool from '../test/fixtures/matches/pool.json' with { type: 'json' };
import { type PoolCvDescription, renderPoolCv } from '../test/fixtures/matches/render-cv.ts';
import roles from '../test/fixtures/matches/roles.json' with { type: 'json' };

export const NOW = new Date('2026-11-24T00:00:00Z');

/** Every pool CV through the real path: PDF → check → virtual CV → profile. */
export async function poolProfiles(): Promise<{ id: string; profile: CandidateProfile }[]> {
  const dir = mkdtempSync(join(tmpdir(), 'match-set-'));
  const checker = createCvChecker({ maxBytes: 5_000_000, maxPages: 10 });
  try {
    const out: { id: string; profile: CandidateProfile }[] = [];
    for (const cv of pool as PoolCvDescription[]) {
      const file = join(dir, `${cv.id}.pdf`);
      writeFileSync(file, await renderPoolCv(cv));
      const verdict = await checker.check(file);
      if (!verdict.ok) throw new Error(`${cv.id}: ${verdict.reason}`);
      const document = buildVirtualCv(verdict.text as PdfPage[], {
        name: cv.name,
        email: cv.email,
        locale: cv.language as CvLanguage,
      });
      out.push({ id: cv.id, profile: candidateProfile(document, NOW) });
    }
    return out;
  } finally {
    await checker.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const log2 = (n: number) => Math.log(n) / Math.LN2;

export function ndcgAt(k: number, ranked: string[], grades: Record<string, number>): number {
  const dcg = ranked.slice(0, k).reduce((sum, id, i) => sum + (2 ** (grades[id] ?? 0) - 1) / log2(i + 2), 0);
  const ideal = Object.values(grades)
    .sort((a, b) => b - a)
    .slice(0, k)
    .reduce((sum, g, i) => sum + (2 ** g - 1) / log2(i + 2), 0);
  return ideal === 0 ? 1 : dcg / ideal;
}

export function recallAt(k: number, ranked: string[], grades: Record<string, number>): number {
  const relevant = Object.entries(grades).filter(([, g]) => g >= 2);
  if (relevant.length === 0) return 1;
  const top = new Set(ranked.slice(0, k));
  return relevant.filter(([id]) => top.has(id)).length / relevant.length;
}

export interface RoleFigures {
  role: string;
  title: string;
  split: string;
  ndcg10: number;
  recall20: number;
}

export function evaluate(people: { id: string; profile: CandidateProfile }[]): RoleFigures[] {
  return roles.map((role) => {
    const ranked = rankCandidates(roleProfile(role.job), people).map((person) => person.id);
    const grades = (judgements as Record<string, Record<string, number>>)[role.id] ?? {};
    return {
      role: role.id,
      title: String(role.job.title),
      split: role.split,
      ndcg10: ndcgAt(10, ranked, grades),
      recall20: recallAt(20, ranked, grades),
    };
  });
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);

if (import.meta.main) {
  const started = performance.now();
  const figures = evaluate(await poolProfiles());
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(figures, null, 2));
  } else {
    const f = (n: number) => n.toFixed(3);
    console.log(`Match ranking on ${pool.length} pool CVs, ${roles.length} roles\n`);
    console.log('role  split     nDCG@10  recall@20  title');
    for (const row of figures) {
      console.log(
        `${row.role}   ${row.split.padEnd(9)} ${f(row.ndcg10)}    ${f(row.recall20)}      ${row.title}`,
      );
    }
    for (const split of ['tuned', 'held_out', 'all']) {
      const rows = split === 'all' ? figures : figures.filter((row) => row.split === split);
      console.log(
        `${split.padEnd(9)} nDCG@10 ${f(mean(rows.map((r) => r.ndcg10)))}  recall@20 ${f(mean(rows.map((r) => r.recall20)))}  worst nDCG@10 ${f(Math.min(...rows.map((r) => r.ndcg10)))}`,
      );
    }
    console.log(`\n${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
}
