// The breakdown chart of docs/benchmarks.md: one stacked bar per build kind, one colour per phase, drawn as
// SVG from the figures of `npm run bench -- --json` (keys "breakdown.<kind>.<phase>", in ms).
// `npm run bench -- --svg docs/benchmarks-breakdown.svg` writes it after a run;
// `node bench/chart.mjs < figures.json > chart.svg` draws it from a saved run.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PHASES } from './phases.mjs';

const COLOURS = ['#9e9e9e', '#e4572e', '#f3a712', '#a8c686', '#29335c', '#669bbc', '#c9cba3'];
// The 1,000-article kinds only: the large site's (breakdown.scale*, bench/scale.mjs) take ten times as long and
// would flatten these bars on a shared axis; the phases table shows them.
const KIND_LABELS = {
  cold: 'cold build (1000 fetched)',
  warm: 'warm build (nothing changed)',
  glob: 'glob() build, same site',
  fullWarm: 'full warm build, 1 change',
  incremental1: 'incremental build, 1 change',
  imagesOffWarm: 'warm, images off',
  imagesWarm: 'warm, images on (3000)',
  globFullWarm: 'glob(): full warm, 1 change',
  globIncremental1: 'glob(): incremental, 1 change',
  globImagesWarm: 'glob(): warm, 3000 local images',
};

const escape = (text) => String(text).replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

export function breakdownSvg(figures) {
  const kinds = Object.keys(KIND_LABELS).filter((kind) => figures[`breakdown.${kind}.startup`] !== undefined);
  const totals = kinds.map((kind) =>
    PHASES.reduce((sum, [phase]) => sum + (figures[`breakdown.${kind}.${phase}`] ?? 0), 0),
  );
  const maxMs = Math.max(1, ...totals);
  const left = 210;
  const width = 760;
  const barWidth = width - left - 70;
  const rowHeight = 30;
  const top = 40;
  const height = top + kinds.length * rowHeight + 14 + Math.ceil(PHASES.length / 2) * 18 + 6;
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    `<text x="10" y="22" font-size="14" font-weight="bold">Where a build's time goes (median per kind, seconds)</text>`,
  ];
  kinds.forEach((kind, row) => {
    const y = top + row * rowHeight;
    out.push(`<text x="${left - 8}" y="${y + 15}" text-anchor="end">${escape(KIND_LABELS[kind])}</text>`);
    let x = left;
    PHASES.forEach(([phase], i) => {
      const ms = figures[`breakdown.${kind}.${phase}`] ?? 0;
      const w = (ms / maxMs) * barWidth;
      if (w <= 0) return;
      out.push(
        `<rect x="${x.toFixed(1)}" y="${y}" width="${w.toFixed(1)}" height="20" fill="${COLOURS[i]}"><title>${escape(`${phase}: ${(ms / 1000).toFixed(2)} s`)}</title></rect>`,
      );
      if (w > 26)
        out.push(
          `<text x="${(x + w / 2).toFixed(1)}" y="${y + 14}" text-anchor="middle" font-size="10" fill="${i === 4 ? '#fff' : '#000'}">${(ms / 1000).toFixed(1)}</text>`,
        );
      x += w;
    });
    out.push(`<text x="${(x + 6).toFixed(1)}" y="${y + 15}">${(totals[row] / 1000).toFixed(1)} s</text>`);
  });
  const legendY = top + kinds.length * rowHeight + 14;
  PHASES.forEach(([phase, label], i) => {
    const x = 10 + (i % 2) * 370;
    const y = legendY + Math.floor(i / 2) * 18;
    out.push(`<rect x="${x}" y="${y}" width="12" height="12" fill="${COLOURS[i]}"/>`);
    out.push(`<text x="${x + 16}" y="${y + 10}">${escape(`${phase}: ${label}`)}</text>`);
  });
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.stdout.write(breakdownSvg(JSON.parse(readFileSync(0, 'utf8'))));
}
