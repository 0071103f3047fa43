// Where a build's time goes, read from Astro's own log: every line Astro prints (logLevel 'info') is stamped
// with the time since build() was called, and the phases are the spans between its landmark lines. Used by
// bench/build-site.mjs and bench/deploy-build.mjs (in the build's process) and by run.mjs (medians, chart).
import { performance } from 'node:perf_hooks';

/** The phases in build order, with the line that ends each one (the previous one's end starts it). */
export const PHASES = [
  ['startup', 'config, integrations, content config', /\[content\] Syncing content/],
  ['loader', 'the loader (ours or glob)', /articles?: \d+ new, |\[content\] Synced content/],
  ['store', "Astro's content store write", /\[content\] Synced content/],
  ['setup', 'types, build setup', /\[build\] Building static entrypoints/],
  ['vite', 'Vite build', /generating static routes/],
  ['render', 'rendering the pages', /✓ Completed in/],
  ['finish', 'assets, output', null],
];

/* eslint-disable-next-line no-control-regex -- colour codes are what this expression removes */
const COLOUR = /\x1b\[[0-9;]*m/g;

/** Captures stdout while `fn` runs; returns its lines with their time (ms since the capture started). */
export async function withStampedLog(fn) {
  const started = performance.now();
  const lines = [];
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = (chunk, ...rest) => {
    const at = performance.now() - started;
    for (const line of String(chunk).replace(COLOUR, '').split('\n')) if (line.trim()) lines.push([at, line]);
    const callback = rest.at(-1);
    if (typeof callback === 'function') callback();
    return true;
  };
  try {
    await fn();
  } finally {
    process.stdout.write = write;
  }
  return { lines, ms: performance.now() - started };
}

/**
 * The phase durations (ms) of one build: each ends at the first line after the previous landmark matching
 * its expression; `finish` runs to the end. A landmark that never came (another log format) gives 0.
 */
export function phasesOf(lines, totalMs) {
  const out = {};
  let from = 0;
  let index = 0;
  for (const [name, , landmark] of PHASES) {
    if (!landmark) {
      out[name] = Math.max(0, Math.round(totalMs - from));
      break;
    }
    const found = lines.findIndex(([, line], i) => i >= index && landmark.test(line));
    if (found === -1) {
      out[name] = 0;
      continue;
    }
    out[name] = Math.round(lines[found][0] - from);
    from = lines[found][0];
    index = found + 1;
  }
  return out;
}
