/**
 * Durations on the command line (`--interval 5m`, `--debounce 30s`, `--interval 200ms` in tests).
 * A bare number is seconds, the unit cron users think in.
 */
const UNITS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

// The timer limit is defined once, with the other option fields (`--interval 99999999h` is refused by it).
export { MAX_TIMER_MS } from '../options/fields.js';

/** Parses `200ms`, `30s`, `5m`, `1h`, `1.5s` or a bare number of seconds; `undefined` when malformed. */
export function parseDuration(text: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(text);
  if (!match) return undefined;
  const value = Number(match[1]);
  const unit = UNITS[match[2] ?? 's'] ?? 1_000;
  const ms = Math.round(value * unit);
  return Number.isFinite(ms) ? ms : undefined;
}

/** `1500` -> `1.5s`, `300000` -> `5m`: for log lines. */
export function formatDuration(ms: number): string {
  if (ms < 1_000) return `${ms}ms`;
  if (ms < 60_000) return `${Number((ms / 1_000).toFixed(1))}s`;
  if (ms < 3_600_000) return `${Number((ms / 60_000).toFixed(1))}m`;
  return `${Number((ms / 3_600_000).toFixed(1))}h`;
}
