// A reader of the Dockerfile's instructions, enough for the deployment tests to check it by hand
// (no Docker daemon here) and to lay out its runtime stage's files without building the image.
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './packaging.ts';

export interface Instruction {
  /** Upper-case keyword: FROM, RUN, COPY, ENV, … */
  keyword: string;
  /** The rest of the instruction, continuation lines joined with single spaces. */
  args: string;
  /** Index of the build stage (the FROM it follows), 0-based. */
  stage: number;
  line: number;
}

/** The instructions of a Dockerfile: comments and parser directives skipped, `\` continuations joined. */
export function parseDockerfile(text: string): Instruction[] {
  const instructions: Instruction[] = [];
  let stage = -1;
  let pending = '';
  let startLine = 0;
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (pending === '' && (line === '' || line.startsWith('#'))) return;
    if (pending !== '' && line.startsWith('#')) return;
    if (pending === '') startLine = index + 1;
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1).trim()} `;
      return;
    }
    const full = (pending + line).trim();
    pending = '';
    const keyword = full.split(/\s+/)[0] ?? '';
    const upper = keyword.toUpperCase();
    if (upper === 'FROM') stage += 1;
    instructions.push({ keyword: upper, args: full.slice(keyword.length).trim(), stage, line: startLine });
  });
  return instructions;
}

export function readDockerfile(): Instruction[] {
  return parseDockerfile(fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8'));
}

/** The last stage's instructions: what the image runs with. */
export function runtimeStage(instructions: Instruction[]): Instruction[] {
  const last = Math.max(...instructions.map((i) => i.stage));
  return instructions.filter((i) => i.stage === last);
}

/** `ENV A=1 B="two"` lines of a stage, as one map (later lines win). */
export function envOf(instructions: Instruction[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const { keyword, args } of instructions) {
    if (keyword !== 'ENV') continue;
    for (const match of args.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("[^"]*"|\S+)/g)) {
      env[match[1]!] = match[2]!.replace(/^"(.*)"$/, '$1');
    }
  }
  return env;
}

/** An exec-form argument list (`["node", "src/main.ts"]`), or null for the shell form. */
export function execForm(args: string): string[] | null {
  const at = args.indexOf('[');
  if (at < 0) return null;
  try {
    const list = JSON.parse(args.slice(at)) as unknown;
    return Array.isArray(list) && list.every((item) => typeof item === 'string') ? list : null;
  } catch {
    return null;
  }
}

/** The HEALTHCHECK's command (exec form), without its options. */
export function healthcheckCommand(instructions: Instruction[]): string[] | null {
  const check = instructions.find((i) => i.keyword === 'HEALTHCHECK');
  if (!check) return null;
  const cmd = check.args.indexOf('CMD');
  return cmd < 0 ? null : execForm(check.args.slice(cmd + 3));
}

export interface Copy {
  from: string | null;
  sources: string[];
  dest: string;
}

/** A stage's COPY instructions: `--from`, the sources, the destination (other flags dropped). */
export function copiesOf(instructions: Instruction[]): Copy[] {
  return instructions
    .filter((i) => i.keyword === 'COPY')
    .map(({ args }) => {
      const words = args.split(/\s+/);
      const from = words.find((w) => w.startsWith('--from='))?.slice('--from='.length) ?? null;
      const paths = words.filter((w) => !w.startsWith('--'));
      return { from, sources: paths.slice(0, -1), dest: paths.at(-1) ?? '' };
    });
}
