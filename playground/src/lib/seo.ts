// Reads the keywords and digest collections into the small shapes the SEO page draws.
// The loaders keep the service's fields; both snake_case and camelCase are read so the page does not
// depend on which spelling a loader version chose.
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

type Loose = Record<string, unknown>;

function pick(data: Loose, ...names: string[]): unknown {
  for (const name of names) if (data[name] !== undefined) return data[name];
  return undefined;
}

function num(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function str(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

export async function keywordRows(): Promise<KeywordRow[]> {
  const entries = await getCollection('keywords');
  return entries
    .map(({ id, data }) => {
      const record = data as Loose;
      const position = num(pick(record, 'position'));
      const previous = num(pick(record, 'previous_position', 'previousPosition'));
      return {
        keyword: str(pick(record, 'keyword')) ?? id,
        position,
        previous,
        change: position !== null && previous !== null ? previous - position : null,
        volume: num(pick(record, 'volume')),
        url: str(pick(record, 'url')),
      };
    })
    .sort((a, b) => (a.position ?? Infinity) - (b.position ?? Infinity) || a.keyword.localeCompare(b.keyword));
}

export async function latestDigest(): Promise<DigestView | undefined> {
  const entries = await getCollection('digest');
  const entry = entries.sort((a, b) => String(b.id).localeCompare(String(a.id)))[0];
  if (!entry) return undefined;
  const data = entry.data as Loose;
  const publications = pick(data, 'publications');
  const movements = pick(data, 'position_movements', 'positionMovements');
  const alerts = pick(data, 'alerts');
  return {
    week: str(pick(data, 'week')),
    publications: Array.isArray(publications) ? publications.length : (num(publications) ?? 0),
    averageAuditScore: num(pick(data, 'average_audit_score', 'averageAuditScore')),
    movements: (Array.isArray(movements) ? movements : []).map((item: Loose) => {
      const from = num(pick(item, 'from', 'previous_position', 'previousPosition'));
      const to = num(pick(item, 'to', 'position'));
      return {
        keyword: str(pick(item, 'keyword')) ?? '',
        from,
        to,
        change: num(pick(item, 'change')) ?? (from !== null && to !== null ? from - to : null),
      };
    }),
    alerts: (Array.isArray(alerts) ? alerts : []).map((item: unknown) =>
      typeof item === 'string'
        ? { severity: 'info', message: item }
        : {
            severity: str(pick(item as Loose, 'severity', 'type')) ?? 'info',
            message: str(pick(item as Loose, 'message')) ?? '',
          },
    ),
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
