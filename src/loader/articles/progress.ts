/**
 * Progress of a long sync, through Astro's logger: how many of the planned articles are fetched, how many
 * images were downloaded, and the time left. Silent for a sync shorter than the first interval (the usual
 * warm build); then one line at a steady pace that a CI log can hold: at least `intervalMs` apart, and only
 * when the work moved by a tenth of the whole since the last line or `heartbeatMs` passed without one (a
 * sync stuck on slow answers still says so). So a sync prints at most about ten lines plus one a minute.
 */

/** When a line is due; the clock is passed in so that the decision is a pure function. */
export interface ProgressPace {
  /** No line before this, and never two lines closer than this. @default 5000 */
  intervalMs: number;
  /** A line even without a tenth's progress after this long. @default 60000 */
  heartbeatMs: number;
}

export const PROGRESS_PACE: ProgressPace = { intervalMs: 5_000, heartbeatMs: 60_000 };

export interface ProgressPoint {
  done: number;
  total: number;
  images: number;
  elapsedMs: number;
}

/** Whether a line is due now, given the last line's time and count (`undefined`: none printed yet). */
export function lineDue(
  now: ProgressPoint,
  last: { elapsedMs: number; done: number } | undefined,
  pace: ProgressPace = PROGRESS_PACE,
): boolean {
  if (now.done >= now.total) return false; // the summary line says the rest
  const since = now.elapsedMs - (last?.elapsedMs ?? 0);
  if (since < pace.intervalMs) return false;
  if (last === undefined) return true;
  return now.done - last.done >= now.total / 10 || since >= pace.heartbeatMs;
}

function duration(ms: number): string {
  const seconds = Math.max(1, Math.round(ms / 1000));
  if (seconds < 90) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  return minutes < 90 ? `${minutes} min` : `${Math.round(minutes / 6) / 10} h`;
}

/** e.g. `fetched 340 of 1000 articles (34%), 120 images downloaded, about 12 s left` */
export function progressLine(p: ProgressPoint): string {
  const percent = p.total ? Math.floor((p.done / p.total) * 100) : 100;
  const parts = [`fetched ${p.done} of ${p.total} articles (${percent}%)`];
  if (p.images > 0) parts.push(`${p.images} image${p.images === 1 ? '' : 's'} downloaded`);
  // The rate so far, applied to what is left; nothing to go on before the first article.
  parts.push(
    p.done > 0 ? `about ${duration((p.elapsedMs / p.done) * (p.total - p.done))} left` : 'waiting for the first',
  );
  return parts.join(', ');
}

export interface SyncProgress {
  /** One planned article finished (stored, kept or failed). */
  done(): void;
  /** Stops the timer; no line after this. */
  stop(): void;
}

/** Starts the progress of `total` planned fetches; `images()` reads the downloads so far. */
export function startProgress(options: {
  total: number;
  info: (line: string) => void;
  images?: () => number;
  pace?: ProgressPace;
  now?: () => number;
}): SyncProgress {
  const now = options.now ?? (() => performance.now());
  const started = now();
  let done = 0;
  let last: { elapsedMs: number; done: number } | undefined;
  const tick = () => {
    const point = { done, total: options.total, images: options.images?.() ?? 0, elapsedMs: now() - started };
    if (!lineDue(point, last, options.pace)) return;
    last = { elapsedMs: point.elapsedMs, done };
    options.info(progressLine(point));
  };
  // Checked once a second; unref'd, so it never keeps a process alive.
  const timer = options.total > 0 ? setInterval(tick, 1_000) : undefined;
  timer?.unref();
  return {
    done: () => {
      done += 1;
    },
    stop: () => clearInterval(timer),
  };
}
