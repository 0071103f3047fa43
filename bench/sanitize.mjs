// Sanitiser throughput (MB of input HTML per second): the package's sanitizeArticle, called the way the
// loader calls it (each article with its own public URL), against sanitize-html on the same HTML twice over:
// with its default options (the baseline), and with the package's own allow-lists (the same tags,
// attributes, classes, schemes and iframe hosts, none of our transforms). The defaults drop what the
// articles carry beyond them (every <img>, every <iframe>, the code's language classes), so that
// baseline writes a third less HTML; the second one does the same job as ours, less our code.
//
// Each side runs in its own fresh process: all share htmlparser2 and sanitize-html's code, and in one
// process the side measured second inherits a JIT warmed (or made polymorphic) by the first; alternating
// them in one process slowed both by about 40%. Processes take turns (each round starting with the next
// side) so that machine load weighs on all alike; each process warms up with full passes, then times several
// and keeps its fastest (other processes on the machine only ever add time); a side's figure is the
// median over its processes.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const PROCESSES_PER_SIDE = 5;
const WARMUP_PASSES = 2;
const TIMED_PASSES = 5;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** In a child process: MB/s of one side over the documents in `file` (its fastest timed pass). */
async function measureSide(side, file) {
  const documents = JSON.parse(readFileSync(file, 'utf8'));
  const megabytes = documents.reduce((sum, doc) => sum + Buffer.byteLength(doc.html), 0) / 1e6;
  let fn;
  if (side === 'ours') {
    const { sanitizeArticle } = await import('../dist/html/index.js');
    fn = (doc) => sanitizeArticle(doc.html, doc.url ? { articleUrl: doc.url } : {});
  } else if (side === 'samePolicy') {
    const { default: sanitizeHtml } = await import('sanitize-html');
    const { resolvePolicy } = await import('../dist/html/index.js');
    const policy = resolvePolicy(undefined);
    const options = {
      allowedTags: policy.allowedTags,
      allowedAttributes: policy.allowedAttributes,
      allowedClasses: policy.allowedClasses,
      allowedSchemes: policy.allowedSchemes,
      allowedIframeHostnames: [...policy.iframeHosts],
      allowProtocolRelative: false,
    };
    fn = (doc) => sanitizeHtml(doc.html, options);
  } else {
    const { default: sanitizeHtml } = await import('sanitize-html');
    fn = (doc) => sanitizeHtml(doc.html);
  }
  const seconds = [];
  for (let pass = 0; pass < WARMUP_PASSES + TIMED_PASSES; pass += 1) {
    const started = performance.now();
    for (const doc of documents) fn(doc);
    if (pass >= WARMUP_PASSES) seconds.push((performance.now() - started) / 1000);
  }
  return megabytes / Math.min(...seconds);
}

/**
 * @param {Array<{ html: string; url?: string }>} documents articles' HTML and public URL
 * @returns {Promise<{ mbPerS: number; baselineMbPerS: number; samePolicyMbPerS: number }>}
 */
export async function measureSanitize(documents) {
  const dir = mkdtempSync(join(tmpdir(), 'acp-sanitize-bench-'));
  try {
    const file = join(dir, 'documents.json');
    writeFileSync(file, JSON.stringify(documents));
    const run = async (side) => {
      const { stdout } = await promisify(execFile)(process.execPath, [fileURLToPath(import.meta.url), side, file]);
      return Number(stdout.trim());
    };
    const sides = { ours: [], baseline: [], samePolicy: [] };
    const order = Object.keys(sides);
    for (let i = 0; i < PROCESSES_PER_SIDE; i += 1) {
      // Each round starts with the next side, so no side always runs right after another.
      for (let k = 0; k < order.length; k += 1) {
        const side = order[(i + k) % order.length];
        sides[side].push(await run(side));
      }
    }
    const round = (value) => Math.round(value * 100) / 100;
    return {
      mbPerS: round(median(sides.ours)),
      baselineMbPerS: round(median(sides.baseline)),
      samePolicyMbPerS: round(median(sides.samePolicy)),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(await measureSide(process.argv[2], process.argv[3]));
}
