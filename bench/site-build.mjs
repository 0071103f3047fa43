// Shared by bench/run.mjs and bench/scale.mjs: a build of bench/build-site.mjs in a child process, and the
// Markdown files of the glob() baseline.
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const here = fileURLToPath(new URL('.', import.meta.url));
const repo = fileURLToPath(new URL('..', import.meta.url));

/** One build in a child process; returns the figures build-site.mjs prints on its last line. */
export async function buildInChild(env, outDir, cacheDir, site = 'site') {
  const { stdout } = await run(process.execPath, [join(here, 'build-site.mjs'), outDir, cacheDir, site], {
    // The outDir must lie inside cwd (otherwise Astro writes its prerender chunks to <cwd>/.astro/, shared
    // with any other build running there) and inside the repository (those chunks import its node_modules).
    cwd: repo,
    env: { ...process.env, ...env },
    maxBuffer: 256 * 1024 * 1024,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1));
}

/** The articles as Markdown files with frontmatter, for Astro's glob() loader (the baseline). */
export function writeMarkdown(details, dir) {
  mkdirSync(dir, { recursive: true });
  for (const article of details) {
    const frontmatter = [
      '---',
      `slug: ${JSON.stringify(article.slug)}`,
      `title: ${JSON.stringify(article.title)}`,
      `language: ${JSON.stringify(article.language)}`,
      `publishedAt: ${article.published_at}`,
      `excerpt: ${JSON.stringify(article.excerpt ?? '')}`,
      '---',
      '',
    ].join('\n');
    writeFileSync(join(dir, `${article.slug}.md`), `${frontmatter}${article.content}\n`);
  }
}

export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const round2 = (n) => Math.round(n * 100) / 100;

/**
 * The two builds of a comparison, interleaved: `pairs` times a build of each, the order alternating (a b,
 * b a, a b, ...) so that a machine's load, which drifts over minutes, weighs on both sides alike. The figure
 * is the median of the per-pair ratios a/b, with their spread (lowest and highest), not a ratio of medians
 * taken minutes apart. `a` and `b` return a build's result ({ ms, phases, ... }).
 */
export async function interleaved(pairs, a, b) {
  const runs = [];
  for (let i = 0; i < pairs; i += 1) {
    if (i % 2 === 0) {
      const first = await a(i);
      runs.push({ a: first, b: await b(i) });
    } else {
      const second = await b(i);
      runs.push({ a: await a(i), b: second });
    }
  }
  const ratios = runs.map((r) => r.a.ms / r.b.ms);
  return {
    runs,
    ratio: round2(median(ratios)),
    min: round2(Math.min(...ratios)),
    max: round2(Math.max(...ratios)),
    aMs: Math.round(median(runs.map((r) => r.a.ms))),
    bMs: Math.round(median(runs.map((r) => r.b.ms))),
  };
}

/** An interleaved() comparison as figures: `name` (the median ratio), `name.min` and `name.max` (its spread). */
export const ratioFigures = (name, { ratio, min, max }) => ({
  [name]: ratio,
  [`${name}.min`]: min,
  [`${name}.max`]: max,
});

/** The median of each phase (and of the loader's own figures) over several builds of one kind. */
export function medianPhases(results) {
  const out = {};
  for (const name of Object.keys(results[0]?.phases ?? {}))
    out[name] = Math.round(median(results.map((r) => r.phases[name])));
  return out;
}

export function medianLoader(results) {
  const withStats = results.filter((r) => r.loader);
  if (!withStats.length) return {};
  const out = {};
  for (const name of Object.keys(withStats[0].loader))
    out[name] = Math.round(median(withStats.map((r) => r.loader[name])));
  return out;
}
