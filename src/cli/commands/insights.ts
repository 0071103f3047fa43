/** `keywords`, `snapshot` and `digest`: a site's tracked keyword positions and its weekly digest. */
import { siteArgument } from '../args.js';
import type { CommandSpec } from '../command.js';
import { json, keyValues, list, recordTable, table, type Column } from '../format.js';
import { printResult } from '../result.js';

type KeywordRow = Record<string, unknown>;

const num = (value: unknown) => (typeof value === 'number' ? value : undefined);
const str = (value: unknown) => (typeof value === 'string' ? value : undefined);
/** A value of a field whose shape is open: as is when scalar, else as JSON. */
const shown = (value: unknown) =>
  value === undefined || value === null || typeof value === 'string' || typeof value === 'number'
    ? value
    : JSON.stringify(value);

/** Positive = moved up (a smaller position number is better). */
function movement(row: KeywordRow): string | undefined {
  const now = num(row.position);
  const before = num(row.previous_position);
  if (now === undefined || before === undefined) return undefined;
  const delta = before - now;
  return delta === 0 ? '=' : delta > 0 ? `+${delta}` : String(delta);
}

const KEYWORD_COLUMNS: Column<KeywordRow>[] = [
  { header: 'KEYWORD', value: (r) => str(r.keyword), max: 40 },
  { header: 'POSITION', value: (r) => num(r.position) },
  { header: 'PREVIOUS', value: (r) => num(r.previous_position) },
  { header: 'MOVE', value: movement },
  { header: 'VOLUME', value: (r) => num(r.volume) },
  { header: 'URL', value: (r) => str(r.url), max: Number.POSITIVE_INFINITY }, // a cut URL leads nowhere
];

/** Digest movements say `from`/`to`/`change`; keyword records say `previous_position`/`position`. */
const MOVEMENT_COLUMNS: Column<KeywordRow>[] = [
  { header: 'KEYWORD', value: (r) => str(r.keyword), max: 40 },
  { header: 'FROM', value: (r) => num(r.from) ?? num(r.previous_position) },
  { header: 'TO', value: (r) => num(r.to) ?? num(r.position) },
  {
    header: 'MOVE',
    value: (r) => {
      const c = num(r.change);
      return c === undefined ? movement(r) : c > 0 ? `+${c}` : c === 0 ? '=' : String(c);
    },
  },
  { header: 'URL', value: (r) => str(r.url), max: Number.POSITIVE_INFINITY }, // a cut URL leads nowhere
];

/** The known columns when the records carry those fields; else every field the records have (not rows of dashes). */
function keywordTable(rows: KeywordRow[]): string {
  const known = rows.some((row) => str(row.keyword) !== undefined || num(row.position) !== undefined);
  return rows.length === 0 || known ? table(rows, KEYWORD_COLUMNS) : recordTable(rows);
}

export const keywordsCommand: CommandSpec = {
  name: 'keywords',
  summary: "a site's tracked keywords with their last known positions",
  usage: '<site>',
  options: {},
  positionals: ['site'],
  examples: ['content-publisher keywords 12', 'content-publisher keywords 12 --json'],
  async run(context, args) {
    const site = siteArgument(args, 'keywords');
    const keywords = await (await context.client()).keywords(site);
    return printResult(context, keywords, (rows) => keywordTable(rows as unknown as KeywordRow[]));
  },
};

export const snapshotCommand: CommandSpec = {
  name: 'snapshot',
  summary: "crawl the search results now and update a site's keyword positions (counts in the rate limit)",
  usage: '<site>',
  options: {},
  positionals: ['site'],
  examples: ['content-publisher snapshot 12'],
  async run(context, args) {
    const site = siteArgument(args, 'snapshot');
    const snapshot = await (await context.client()).snapshot(site);
    return printResult(context, snapshot as unknown as Record<string, unknown>, (record) => {
      // The answer's shape is not documented: counts only when the service gave them, else what it sent.
      const results = Array.isArray(record.results) ? (record.results as KeywordRow[]) : undefined;
      const updated = num(record.updated) ?? results?.length;
      if (updated !== undefined) {
        return `Updated: ${updated} keyword position${updated === 1 ? '' : 's'}\n\n${keywordTable(results ?? [])}`;
      }
      const next = `\`content-publisher keywords ${site}\` shows the positions.`;
      return Object.keys(record).length === 0
        ? `Snapshot requested; the service's answer reports no positions (empty). ${next}\n`
        : `Snapshot requested; the service answered (no positions in it):\n${json(record)}${next}\n`;
    });
  },
};

export const digestCommand: CommandSpec = {
  name: 'digest',
  summary: "a site's weekly digest: publications, average audit score, position movements, alerts",
  usage: '<site>',
  options: {},
  positionals: ['site'],
  examples: ['content-publisher digest 12', 'content-publisher digest 12 --json | jq .alerts'],
  async run(context, args) {
    const site = siteArgument(args, 'digest');
    const digest = (await (await context.client()).digest(site)) as unknown as Record<string, unknown>;
    return printResult(context, digest, () => {
      const topics = ['week', 'publications', 'average_audit_score', 'position_movements', 'alerts'];
      // None of the fields this rendering knows: show the digest as it came.
      if (!topics.some((name) => digest[name] !== undefined)) return `Weekly digest:\n${json(digest)}`;
      const publications = digest.publications;
      const movements = Array.isArray(digest.position_movements) ? (digest.position_movements as KeywordRow[]) : [];
      const alerts = Array.isArray(digest.alerts) ? (digest.alerts as unknown[]) : [];
      const others = Object.keys(digest).filter((name) => !topics.includes(name));
      return [
        keyValues([
          ['week', shown(digest.week)],
          ['publications', Array.isArray(publications) ? publications.length : shown(publications)],
          ['average audit score', shown(digest.average_audit_score)],
        ]),
        Array.isArray(publications)
          ? list(
              'Publications',
              publications.map(
                (p) => str((p as KeywordRow)?.title) ?? str((p as KeywordRow)?.slug) ?? JSON.stringify(p),
              ),
            )
          : '',
        // A shape this rendering does not know (not a list) is shown as sent, not as "(none)".
        digest.position_movements === undefined || Array.isArray(digest.position_movements)
          ? `Position movements:\n${table(movements, MOVEMENT_COLUMNS)}`
          : `Position movements (as sent):\n${json(digest.position_movements)}`,
        digest.alerts === undefined || Array.isArray(digest.alerts)
          ? list(
              'Alerts',
              alerts.map((a) => str(a) ?? str((a as Record<string, unknown>)?.message) ?? JSON.stringify(a)),
            )
          : `Alerts (as sent):\n${json(digest.alerts)}`,
        // Fields this rendering does not know, as sent.
        others.length > 0
          ? `Other fields:\n${json(Object.fromEntries(others.map((name) => [name, digest[name]])))}`
          : '',
      ]
        .filter(Boolean)
        .join('\n');
    });
  },
};
