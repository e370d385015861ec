import fs from 'node:fs';

/**
 * CPU time (user + system, ms) this process and its children have used so far: its own, its
 * children's that ended (the kernel adds them when reaped) and its live children's (the PDF
 * children, read from /proc by parent pid; prlimit execs node in place, so the pid is node's).
 * Linux only; NaN elsewhere.
 */
export function cpuWithChildren(): number {
  try {
    const own = fields(fs.readFileSync('/proc/self/stat', 'utf8'));
    let ticks = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14]);
    for (const entry of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = fields(fs.readFileSync(`/proc/${entry}/stat`, 'utf8'));
        if (Number(stat[1]) === process.pid) ticks += Number(stat[11]) + Number(stat[12]);
      } catch {
        // gone meanwhile
      }
    }
    return ticks * 10;
  } catch {
    return Number.NaN;
  }
}

// The fields after the command name (which may hold spaces): state is [0], ppid [1], utime [11].
function fields(stat: string): string[] {
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}
