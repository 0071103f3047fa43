// Sanitiser throughput (MB of input HTML per second): the package's sanitizeArticle, called the way the
// loader calls it (each article with its own public URL), against sanitize-html with its default options
// on the same HTML. Both run in this process and share htmlparser2 and sanitize-html's code, so the side
// measured second would inherit a warmer JIT: both are warmed up with full passes first, then the timed
// passes alternate (ours, baseline, baseline, ours, ...) so that JIT state and machine load weigh on both
// alike, and each figure is the median of its side's passes.
import { performance } from 'node:perf_hooks';
import sanitizeHtml from 'sanitize-html';
import { sanitizeArticle } from '../dist/html/index.js';

const WARMUP_ROUNDS = 2;
const TIMED_ROUNDS = 8;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Seconds for one pass of `fn` over every document. */
function timePass(documents, fn) {
  const started = performance.now();
  for (const doc of documents) fn(doc);
  return (performance.now() - started) / 1000;
}

/**
 * @param {Array<{ html: string; url?: string }>} documents articles' HTML and public URL
 * @returns {{ mbPerS: number; baselineMbPerS: number }}
 */
export function measureSanitize(documents) {
  const megabytes = documents.reduce((sum, doc) => sum + Buffer.byteLength(doc.html), 0) / 1e6;
  const ours = (doc) => sanitizeArticle(doc.html, doc.url ? { articleUrl: doc.url } : {});
  const baseline = (doc) => sanitizeHtml(doc.html);
  for (let round = 0; round < WARMUP_ROUNDS; round += 1) {
    timePass(documents, ours);
    timePass(documents, baseline);
  }
  const oursSeconds = [];
  const baselineSeconds = [];
  for (let round = 0; round < TIMED_ROUNDS; round += 1) {
    if (round % 2 === 0) {
      oursSeconds.push(timePass(documents, ours));
      baselineSeconds.push(timePass(documents, baseline));
    } else {
      baselineSeconds.push(timePass(documents, baseline));
      oursSeconds.push(timePass(documents, ours));
    }
  }
  const rate = (seconds) => Math.round((megabytes / median(seconds)) * 100) / 100;
  return { mbPerS: rate(oursSeconds), baselineMbPerS: rate(baselineSeconds) };
}
