import fs from 'node:fs';

// npm before 11.16 drops the `libc` of platform packages when it rewrites the lockfile; the Linux
// glibc builds of Biome and @napi-rs/canvas must keep it (docs/operations.md, "Dependencies").
// Run after regenerating the lockfile: `node scripts/lockfile-libc.ts`.
const lock = JSON.parse(fs.readFileSync('package-lock.json', 'utf8')) as {
  packages: Record<string, Record<string, unknown>>;
};
for (const [key, entry] of Object.entries(lock.packages)) {
  const os = entry.os as string[] | undefined;
  if (!os?.includes('linux') || entry.libc || !/-(gnu|linux-(x64|arm64))$/.test(key)) continue;
  const ordered: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(entry)) {
    ordered[field] = value;
    if (field === 'cpu') ordered.libc = ['glibc'];
  }
  lock.packages[key] = ordered;
}
fs.writeFileSync('package-lock.json', `${JSON.stringify(lock, null, 2)}\n`);
