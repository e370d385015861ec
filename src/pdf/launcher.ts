// How a parser child is started: under an OS address-space limit where the platform has one, and
// inside Node's permission model (issue 11, item 7): it may read only its own code and pdf.js, and
// may start no process or thread. The PDF's bytes reach it over IPC, so DATA_DIR (console token,
// signing key, database) is not readable from it. Network modules are refused by the child's own
// module hooks (parse-worker.ts), as Node 24's permission model does not cover the network.

import { type ChildProcess, spawn } from 'node:child_process';
import { access, constants } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export type MemoryLimitMethod = 'prlimit' | 'ulimit' | 'none';

export const WORKER_PATH = fileURLToPath(new URL('./parse-worker.ts', import.meta.url));

/** Node's flags for the child: the heap limit and the permission model's read allow-list. */
export function childNodeArgs(heapLimitMb: number): string[] {
  const pdfjsRoot = dirname(fileURLToPath(import.meta.resolve('pdfjs-dist/package.json')));
  return [
    `--max-old-space-size=${heapLimitMb}`,
    // With the old generation capped, V8 starts it small and collected it in full every few
    // documents (20 full collections in 330 parses of a 2-page CV, against 3 uncapped): 11.9 ms of
    // CPU a parse instead of 8.0. Starting it at half the cap keeps the cap and the uncapped cost.
    `--initial-old-space-size=${Math.floor(heapLimitMb / 2)}`,
    '--permission',
    `--allow-fs-read=${dirname(WORKER_PATH)}/`,
    `--allow-fs-read=${pdfjsRoot}/`,
    WORKER_PATH,
  ];
}

export interface Launcher {
  method: MemoryLimitMethod;
  command(node: string, nodeArgs: string[], memoryLimitMb: number): { command: string; args: string[] };
}

// prlimit(1) sets RLIMIT_AS and execs node in place, so the pid and the IPC channel are node's
// own. Where it is missing, a POSIX shell's `ulimit -v` does the same. Elsewhere (macOS, Windows)
// only the heap limit and the deadline apply.
export async function findLauncher(memoryLimitMb: number): Promise<Launcher> {
  if (process.platform === 'linux' && memoryLimitMb > 0) {
    const prlimit = await firstExecutable(PRLIMIT_PATHS);
    if (prlimit) {
      return {
        method: 'prlimit',
        command: (node, nodeArgs, mb) => ({
          command: prlimit,
          args: [`--as=${mb * 1024 * 1024}`, '--', node, ...nodeArgs],
        }),
      };
    }
    if (await firstExecutable(['/bin/sh'])) {
      return {
        method: 'ulimit',
        command: (node, nodeArgs, mb) => ({
          command: '/bin/sh',
          args: ['-c', 'ulimit -v "$0" && exec "$@"', String(mb * 1024), node, ...nodeArgs],
        }),
      };
    }
  }
  return { method: 'none', command: (node, nodeArgs) => ({ command: node, args: nodeArgs }) };
}

// util-linux's install locations; PATH is not consulted, so the environment cannot swap the tool.
const PRLIMIT_PATHS = ['/usr/bin/prlimit', '/bin/prlimit', '/usr/local/bin/prlimit'];

async function firstExecutable(paths: string[]): Promise<string | undefined> {
  for (const path of paths) {
    if (await executable(path)) return path;
  }
  return undefined;
}

async function executable(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Starts one parse-worker child through `launcher`, under the heap and address-space limits.
 * The child, its IPC channel and its stderr are unref'd: an idle pool never keeps the process alive.
 */
export function spawnParserChild(
  launcher: Launcher,
  heapLimitMb: number,
  memoryLimitMb: number,
): ChildProcess {
  const { command, args } = launcher.command(process.execPath, childNodeArgs(heapLimitMb), memoryLimitMb);
  const child = spawn(command, args, {
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    serialization: 'advanced',
    // Its own process group: a signal to the service's group does not reach it (parser-pool.ts).
    detached: true,
    // A clean environment: the child needs no secrets, and must not pick up NODE_OPTIONS or a
    // test runner's context. Fewer malloc arenas keep the address space small under RLIMIT_AS.
    env: { MALLOC_ARENA_MAX: '2', LANG: 'C.UTF-8' },
  });
  child.unref();
  child.channel?.unref();
  (child.stderr as unknown as { unref?: () => void } | null)?.unref?.();
  return child;
}
