#!/usr/bin/env node
// `npm run build && node bench/sanitize-only.mjs [runs]`: only the sanitiser figures of `npm run bench`
// (the same 1000 simulator articles, the same measureSanitize, both baselines), repeated in fresh processes so that a
// busy machine shows as spread rather than as one unlucky figure. Prints each run and the medians.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startSimulator } from 'astro-content-publisher/simulator';
import { measureSanitize } from './sanitize.mjs';

const ARTICLES = 1000;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Every article's HTML and URL, read through the API as bench/run.mjs does. */
async function fetchArticles() {
  const simulator = await startSimulator({ articles: ARTICLES, rateLimitOverride: 1_000_000 });
  try {
    const siteId = simulator.sites.agence[0];
    const auth = { authorization: `Bearer ${simulator.tokens.agence}` };
    const list = await (await fetch(`${simulator.url}/api/v1/sites/${siteId}/articles/`, { headers: auth })).json();
    const documents = [];
    for (let i = 0; i < list.results.length; i += 16) {
      const batch = list.results.slice(i, i + 16).map(async (item) => {
        const response = await fetch(
          `${simulator.url}/api/v1/sites/${siteId}/articles/${encodeURIComponent(item.slug)}/`,
          { headers: auth },
        );
        const article = await response.json();
        return { html: article.content, url: article.url };
      });
      documents.push(...(await Promise.all(batch)));
    }
    return documents;
  } finally {
    await simulator.close();
  }
}

if (process.argv[2] === '--child') {
  console.log(JSON.stringify(await measureSanitize(await fetchArticles())));
} else {
  const runs = Number(process.argv[2] ?? 5);
  const results = [];
  for (let i = 0; i < runs; i += 1) {
    const { stdout } = await promisify(execFile)(process.execPath, [fileURLToPath(import.meta.url), '--child']);
    const result = JSON.parse(stdout.trim().split('\n').at(-1));
    const ratio = (baseline) => Math.round((result.mbPerS / baseline) * 1000) / 1000;
    results.push({ ...result, ratio: ratio(result.baselineMbPerS), samePolicyRatio: ratio(result.samePolicyMbPerS) });
    console.error(
      `run ${i + 1}: sanitize ${result.mbPerS} MB/s, baseline ${result.baselineMbPerS} MB/s, same policy ${result.samePolicyMbPerS} MB/s`,
    );
  }
  console.log(
    JSON.stringify({
      runs,
      'sanitize.mbPerS': median(results.map((r) => r.mbPerS)),
      'sanitizeBaseline.mbPerS': median(results.map((r) => r.baselineMbPerS)),
      'sanitizeSamePolicy.mbPerS': median(results.map((r) => r.samePolicyMbPerS)),
      ratio: median(results.map((r) => r.ratio)),
      samePolicyRatio: median(results.map((r) => r.samePolicyRatio)),
    }),
  );
}
