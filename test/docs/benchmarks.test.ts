/**
 * The benchmark's tables and chart (bench/tables.mjs, bench/chart.mjs), and docs/benchmarks.md against its
 * figures file: the breakdown tables and the chart of the page are the ones the bench generates from
 * docs/benchmarks-figures.json (`node bench/run.mjs --table docs/benchmarks-figures.json --svg ...`), so that a
 * hand-edited or half-merged table cannot pass for a measured one.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { breakdownSvg } from '../../bench/chart.mjs';
import { loaderTable, phasesTable, scaleTable } from '../../bench/tables.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const page = readFileSync(join(root, 'docs/benchmarks.md'), 'utf8');
const saved = JSON.parse(readFileSync(join(root, 'docs/benchmarks-figures.json'), 'utf8')) as Record<string, number>;

/** The Markdown tables of one `## ` section of the page, each as its lines joined. */
function tablesOf(section: string): string[] {
  const start = page.indexOf(`\n## ${section}\n`);
  expect(start, `docs/benchmarks.md has a section "## ${section}"`).toBeGreaterThan(-1);
  const end = page.indexOf('\n## ', start + 1);
  const tables: string[] = [];
  let current: string[] = [];
  for (const line of page.slice(start, end === -1 ? undefined : end).split('\n')) {
    if (line.startsWith('|')) current.push(line);
    else if (current.length) {
      tables.push(current.join('\n'));
      current = [];
    }
  }
  if (current.length) tables.push(current.join('\n'));
  return tables;
}

const figures = {
  pairs: 5,
  'breakdown.warm.startup': 1000,
  'breakdown.warm.loader': 200,
  'breakdown.warm.store': 300,
  'breakdown.warm.setup': 10,
  'breakdown.warm.vite': 2000,
  'breakdown.warm.render': 3000,
  'breakdown.warm.finish': 5,
  'loader.warm.loadMs': 190,
  'loader.warm.storeSets': 0,
  'breakdown.scaleFullWarm.startup': 4000,
  'breakdown.scaleFullWarm.render': 30000,
  'scale.incrementalVsFull': 0.31,
  'scale.incrementalVsFull.min': 0.25,
  'scale.incrementalVsFull.max': 0.4,
};

describe('bench tables', () => {
  it('the phases table has one column per phase and a total, one row of phase times per build kind', () => {
    expect(phasesTable(figures).split('\n')).toEqual([
      '| build (ms)    | startup | loader | store | setup | vite | render | finish | total |',
      '|---------------|--------:|-------:|------:|------:|-----:|-------:|-------:|------:|',
      '| warm          |    1000 |    200 |   300 |    10 | 2000 |   3000 |      5 |  6515 |',
      '| scaleFullWarm |    4000 |      0 |     0 |     0 |    0 |  30000 |      0 | 34000 |',
    ]);
  });

  it("the loader table has the loader's figures, only for the kinds whose builds recorded them", () => {
    expect(loaderTable(figures).split('\n')).toEqual([
      '| loader | loadMs | storeSets |',
      '|--------|-------:|----------:|',
      '| warm   |    190 |         0 |',
    ]);
  });

  it("the large site's figures come in their own table, a ratio with its spread and its target", () => {
    const targets = {
      'scale.incrementalVsFull': ['<= 0.2', (f: typeof figures) => f['scale.incrementalVsFull'] <= 0.2],
    };
    expect(scaleTable(figures, targets).split('\n')).toEqual([
      '| figure                  |            value | target |        |',
      '|-------------------------|-----------------:|--------|--------|',
      '| scale.incrementalVsFull | 0.31 [0.25, 0.4] | <= 0.2 | MISSED |',
    ]);
  });
});

describe('docs/benchmarks.md', () => {
  it("shows the breakdown tables generated from docs/benchmarks-figures.json (Where a build's time goes)", () => {
    expect(tablesOf("Where a build's time goes")).toEqual([phasesTable(saved), loaderTable(saved)]);
  });

  it('shows the breakdown chart generated from docs/benchmarks-figures.json', () => {
    const svg = readFileSync(join(root, 'docs/benchmarks-breakdown.svg'), 'utf8');
    expect(svg).toBe(breakdownSvg(saved));
    expect(svg).toContain('<title>startup: ');
  });
});
