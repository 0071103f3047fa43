// The Markdown tables of `npm run bench` and `node bench/run.mjs --table <figures.json>`, as pure functions of
// the flat figures (the keys of `--json`), so that docs/benchmarks.md can be checked against its figures file
// (test/docs/benchmarks.test.ts):
// - the figures with their targets ("figure | value | target"), the 1,000-article run and the large site
//   (keys "scale.*") apart, as docs/benchmarks.md shows them in two sections;
// - where each kind of build spends its time: one column per phase of bench/phases.mjs and a total (keys
//   "breakdown.<kind>.<phase>", ms);
// - what the loader asked of Astro, per kind (keys "loader.<kind>.<figure>", bench/loader-stats.mjs).
import { PHASES } from './phases.mjs';

const isBreakdown = (name) => name.startsWith('breakdown.') || name.startsWith('loader.');
const isScale = (name) => name.startsWith('scale.');

/** A Markdown table; `right(i)` says which columns are right-aligned (numbers). */
export function markdownTable(head, rows, right = (i) => i > 0) {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells) =>
    `| ${cells.map((cell, i) => (right(i) ? cell.padStart(widths[i]) : cell.padEnd(widths[i]))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (right(i) ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`;
  return [line(head), rule, ...rows.map(line)].join('\n');
}

/**
 * The figures whose names `include` accepts, each with its target and whether it was met. A ratio's spread
 * is shown beside it: "0.97 [0.91, 1.05]" (median, lowest, highest of the pairs), its ".min"/".max" keys
 * folded in. `targets` maps a name to [text, (figures) => met].
 */
function targetTable(all, targets, include) {
  const spread = (name) => all[`${name}.min`] !== undefined && all[`${name}.max`] !== undefined;
  const names = Object.keys(all).filter(
    (name) =>
      include(name) &&
      !isBreakdown(name) &&
      !((name.endsWith('.min') || name.endsWith('.max')) && spread(name.slice(0, -4))),
  );
  if (!names.length) return '';
  const rows = names.map((name) => {
    const value = spread(name) ? `${all[name]} [${all[`${name}.min`]}, ${all[`${name}.max`]}]` : all[name];
    // Hostile feed shapes (bench/feeds-hostile.mjs): each within 2x the ordinary document of its size.
    const target = targets[name] ?? (name.endsWith('.ratio') ? ['<= 2', (f) => f[name] <= 2] : undefined);
    return [name, String(value), target ? target[0] : '', target ? (target[1](all) ? 'met' : 'MISSED') : ''];
  });
  return markdownTable(['figure', 'value', 'target', ''], rows, (i) => i === 1);
}

/** The figures of the 1,000-article run, with their targets. */
export const figuresTable = (all, targets) => targetTable(all, targets, (name) => !isScale(name));

/** The figures of the large site (bench/scale.mjs), with their targets; '' when the run has none. */
export const scaleTable = (all, targets) => targetTable(all, targets, isScale);

/** The build kinds that have figures under `prefix` ("breakdown" or "loader"), in the order of the figures. */
function kindsOf(all, prefix) {
  return [
    ...new Set(
      Object.keys(all)
        .filter((name) => name.startsWith(`${prefix}.`))
        .map((name) => name.split('.')[1]),
    ),
  ];
}

/** Median ms of each phase per kind of build, and their total; '' when the run has no breakdown. */
export function phasesTable(all) {
  const kinds = kindsOf(all, 'breakdown');
  if (!kinds.length) return '';
  const phases = PHASES.map(([phase]) => phase);
  const rows = kinds.map((kind) => {
    const values = phases.map((phase) => all[`breakdown.${kind}.${phase}`] ?? 0);
    return [kind, ...values.map(String), String(values.reduce((a, b) => a + b, 0))];
  });
  return markdownTable(['build (ms)', ...phases, 'total'], rows);
}

/** The loader's own figures per kind of build (only the kinds whose builds recorded them). */
export function loaderTable(all) {
  const kinds = kindsOf(all, 'loader');
  if (!kinds.length) return '';
  const names = [
    ...new Set(
      Object.keys(all)
        .filter((name) => name.startsWith('loader.'))
        .map((name) => name.split('.')[2]),
    ),
  ];
  const rows = kinds.map((kind) => [kind, ...names.map((name) => String(all[`loader.${kind}.${name}`] ?? ''))]);
  return markdownTable(['loader', ...names], rows);
}
