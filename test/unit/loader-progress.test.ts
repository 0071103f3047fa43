import { describe, expect, it } from 'vitest';
import { lineDue, PROGRESS_PACE, progressLine, type ProgressPoint } from '../../src/loader/articles/progress.js';

/** The lines a sync of `total` articles finishing evenly over `durationMs` prints, checked once a second. */
function linesOf(total: number, durationMs: number, stallFrom = Infinity): ProgressPoint[] {
  const lines: ProgressPoint[] = [];
  let last: { elapsedMs: number; done: number } | undefined;
  for (let t = 1_000; t <= durationMs; t += 1_000) {
    const done = Math.min(total, Math.floor((Math.min(t, stallFrom) / durationMs) * total));
    const point = { done, total, images: 0, elapsedMs: t };
    if (lineDue(point, last)) {
      lines.push(point);
      last = { elapsedMs: t, done };
    }
  }
  return lines;
}

describe('sync progress lines', () => {
  it('a sync shorter than the first interval prints nothing', () => {
    expect(linesOf(1000, 4_000)).toEqual([]);
  });

  it('a 30 s sync prints a line every 5 s; a 5 min sync one a tenth; a 30 min sync one a minute, not 360', () => {
    expect(linesOf(1000, 30_000).map((p) => p.elapsedMs)).toEqual([5_000, 10_000, 15_000, 20_000, 25_000]);
    const gaps = (lines: ProgressPoint[]) => lines.slice(1).map((p, i) => p.elapsedMs - lines[i]!.elapsedMs);
    const five = linesOf(1000, 300_000);
    expect(five.length).toBeLessThanOrEqual(10);
    expect(gaps(five).every((gap) => gap === 30_000)).toBe(true);
    const long = linesOf(10_000, 1_800_000);
    expect(long.length).toBeLessThanOrEqual(30);
    expect(gaps(long).every((gap) => gap === PROGRESS_PACE.heartbeatMs)).toBe(true);
  });

  it('a stalled sync still says so once a minute', () => {
    const lines = linesOf(1000, 600_000, 100_000);
    const stalled = lines.filter((p) => p.elapsedMs > 100_000);
    expect(stalled.length).toBe(8);
    expect(stalled.every((p) => p.done === 166)).toBe(true);
    for (const p of stalled) expect(lines[lines.indexOf(p) - 1]!.elapsedMs).toBe(p.elapsedMs - 60_000);
  });

  it('says how far, how many images and the time left', () => {
    expect(progressLine({ done: 340, total: 1000, images: 120, elapsedMs: 17_000 })).toBe(
      'fetched 340 of 1000 articles (34%), 120 images downloaded, about 33 s left',
    );
    expect(progressLine({ done: 100, total: 10_000, images: 0, elapsedMs: 60_000 })).toBe(
      'fetched 100 of 10000 articles (1%), about 1.7 h left',
    );
    expect(progressLine({ done: 0, total: 50, images: 1, elapsedMs: 6_000 })).toBe(
      'fetched 0 of 50 articles (0%), 1 image downloaded, waiting for the first',
    );
  });

  it('no line once everything is fetched (the summary line follows)', () => {
    expect(lineDue({ done: 10, total: 10, images: 0, elapsedMs: 60_000 }, undefined)).toBe(false);
  });
});
