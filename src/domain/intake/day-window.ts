/** The UTC day that holds `now`, and the seconds left until the next midnight UTC. */
export function utcDay(now: Date): { start: Date; end: Date; secondsLeft: number } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const end = new Date(start.getTime() + 86_400_000);
  return { start, end, secondsLeft: Math.max(1, Math.ceil((end.getTime() - now.getTime()) / 1000)) };
}
