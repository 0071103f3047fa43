// Reads the keywords and digest collections into the small shapes the SEO page draws. The loaders pin their
// data (camelCase for the fields they name, the service's other fields as sent; see the README's "Keywords
// and digest data"): the page reads that one spelling, typed by the loaders' schemas.
import { getCollection } from 'astro:content';

export interface KeywordRow {
  keyword: string;
  position: number | null;
  previous: number | null;
  /** Places gained (positive) or lost (negative) since the previous crawl; null when unknown. */
  change: number | null;
  volume: number | null;
  url: string | null;
}

export interface DigestView {
  week: string | null;
  publications: number;
  averageAuditScore: number | null;
  movements: Array<{ keyword: string; from: number | null; to: number | null; change: number | null }>;
  alerts: Array<{ severity: string; message: string }>;
}

// The items of the digest's lists are the service's own records (the loader keeps them as sent).
type Item = Record<string, unknown>;

function num(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function str(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

export async function keywordRows(): Promise<KeywordRow[]> {
  const entries = await getCollection('keywords');
  return entries
    .map(({ data }) => {
      const { keyword, position, previousPosition: previous, volume, url } = data;
      return {
        keyword,
        position,
        previous,
        change: position !== null && previous !== null ? previous - position : null,
        volume,
        url,
      };
    })
    .sort((a, b) => (a.position ?? Infinity) - (b.position ?? Infinity) || a.keyword.localeCompare(b.keyword));
}

export async function latestDigest(): Promise<DigestView | undefined> {
  const entries = await getCollection('digest');
  const entry = entries.find(({ id }) => id === 'latest');
  if (!entry) return undefined;
  const { week, publications, averageAuditScore, positionMovements, alerts } = entry.data;
  return {
    week: str(week),
    publications: Array.isArray(publications) ? publications.length : 0,
    averageAuditScore,
    movements: (positionMovements as Item[]).map((item) => {
      const from = num(item.from);
      const to = num(item.to);
      return {
        keyword: str(item.keyword) ?? '',
        from,
        to,
        change: num(item.change) ?? (from !== null && to !== null ? from - to : null),
      };
    }),
    alerts: (alerts as Item[]).map((item) => ({
      severity: str(item.severity) ?? 'info',
      message: str(item.message) ?? '',
    })),
  };
}

/** Geometry of the positions chart, computed at build time (no client-side JavaScript). */
export interface ChartRow {
  keyword: string;
  y: number;
  x: number | null;
  previousX: number | null;
  trend: 'up' | 'down' | 'same' | 'new';
}

export function positionsChart(rows: KeywordRow[], width = 640) {
  const rowHeight = 28;
  const left = 190;
  const right = 24;
  const top = 30;
  const worst = Math.max(10, ...rows.flatMap((row) => [row.position ?? 0, row.previous ?? 0]));
  // Position 1 on the left: a dot moving left is a keyword climbing.
  const scale = (position: number) => left + ((position - 1) / Math.max(1, worst - 1)) * (width - left - right);
  const ticks = [1, ...[0.25, 0.5, 0.75, 1].map((f) => Math.round(1 + f * (worst - 1)))].filter(
    (tick, index, all) => all.indexOf(tick) === index,
  );
  const chartRows: ChartRow[] = rows.map((row, index) => ({
    keyword: row.keyword,
    y: top + index * rowHeight + rowHeight / 2,
    x: row.position === null ? null : scale(row.position),
    previousX: row.previous === null ? null : scale(row.previous),
    trend: row.change === null ? 'new' : row.change > 0 ? 'up' : row.change < 0 ? 'down' : 'same',
  }));
  return {
    width,
    height: top + rows.length * rowHeight + 8,
    left,
    top,
    rows: chartRows,
    ticks: ticks.map((tick) => ({ label: String(tick), x: scale(tick) })),
  };
}
