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
export async function buildInChild(env, outDir, cacheDir) {
  const { stdout } = await run(process.execPath, [join(here, 'build-site.mjs'), outDir, cacheDir], {
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
