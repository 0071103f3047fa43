/** `keywords`, `snapshot` and `digest`: a site's tracked keyword positions and its weekly digest. */
import { siteArgument } from '../args.js';
import type { CommandSpec } from '../command.js';
import { keyValues, list, table, type Column } from '../format.js';
import { printResult } from '../result.js';

type KeywordRow = Record<string, unknown>;

const num = (value: unknown) => (typeof value === 'number' ? value : undefined);
const str = (value: unknown) => (typeof value === 'string' ? value : undefined);

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
  { header: 'URL', value: (r) => str(r.url), max: 60 },
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
  { header: 'URL', value: (r) => str(r.url), max: 60 },
];

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
    return printResult(context, keywords, (rows) => table(rows as unknown as KeywordRow[], KEYWORD_COLUMNS));
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
      const results = Array.isArray(record.results) ? (record.results as KeywordRow[]) : [];
      return `Updated: ${num(record.updated) ?? results.length} keyword positions\n\n${table(results, KEYWORD_COLUMNS)}`;
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
      const publications = digest.publications;
      const movements = Array.isArray(digest.position_movements) ? (digest.position_movements as KeywordRow[]) : [];
      const alerts = Array.isArray(digest.alerts) ? (digest.alerts as unknown[]) : [];
      return [
        keyValues([
          ['week', str(digest.week) ?? num(digest.week)],
          [
            'publications',
            Array.isArray(publications) ? publications.length : (num(publications) ?? str(publications)),
          ],
          ['average audit score', num(digest.average_audit_score)],
        ]),
        Array.isArray(publications)
          ? list(
              'Publications',
              publications.map(
                (p) => str((p as KeywordRow)?.title) ?? str((p as KeywordRow)?.slug) ?? JSON.stringify(p),
              ),
            )
          : '',
        `Position movements:\n${table(movements, MOVEMENT_COLUMNS)}`,
        list(
          'Alerts',
          alerts.map((a) => str(a) ?? str((a as Record<string, unknown>)?.message) ?? JSON.stringify(a)),
        ),
      ]
        .filter(Boolean)
        .join('\n');
    });
  },
};
