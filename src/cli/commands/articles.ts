/** `articles <site>` and `article <site> <slug>`. */
import { moreArticles, offsetOfNext, type ArticlePage, type ArticleQuery } from '../../client/resources/articles.js';
import { nonNegativeInteger, positiveInteger, siteArgument, stringOption } from '../args.js';
import type { CommandSpec } from '../command.js';
import { keyValues, table } from '../format.js';
import { printResult } from '../result.js';

/** The stderr line when the service says more articles exist: how many, and the command for the next page. */
function morePages(page: ArticlePage, site: number, query: ArticleQuery, offset: number): string {
  const shown = `${page.results.length}${page.count === undefined ? '' : ` of ${page.count}`} articles shown`;
  const after = offset + page.results.length;
  const next = page.next ? offsetOfNext(page.next, after) : after;
  if (next === undefined) {
    return `${shown}; the service pages this list, and its next page (${page.next}) carries no \`offset\` this command can follow.`;
  }
  const filters = [
    query.status !== undefined && `--status ${JSON.stringify(query.status)}`,
    query.language !== undefined && `--language ${JSON.stringify(query.language)}`,
    query.limit !== undefined && `--limit ${query.limit}`,
  ].filter(Boolean);
  return `${shown}; the service pages this list. Next page: content-publisher articles ${site} ${[...filters, `--offset ${next}`].join(' ')}`;
}

export const articlesCommand: CommandSpec = {
  name: 'articles',
  summary: "list a site's articles, newest first",
  usage: '<site> [--status S] [--language L] [--limit N] [--offset N]',
  options: {
    status: { type: 'string', placeholder: 'S', description: 'only articles with this status (e.g. published)' },
    language: { type: 'string', placeholder: 'L', description: 'only articles in this language (e.g. en)' },
    limit: { type: 'string', placeholder: 'N', description: 'at most N articles' },
    offset: {
      type: 'string',
      placeholder: 'N',
      description: 'skip the first N (a service that pages its list says on stderr where the next page starts)',
    },
  },
  positionals: ['site'],
  examples: [
    'content-publisher articles 12 --language en --limit 10',
    'content-publisher articles 12 --json | jq ".[].slug"',
  ],
  async run(context, args) {
    const site = siteArgument(args, 'articles');
    const limitText = stringOption(args, 'limit');
    const status = stringOption(args, 'status');
    const language = stringOption(args, 'language');
    const query = {
      ...(status !== undefined && { status }),
      ...(language !== undefined && { language }),
      ...(limitText !== undefined && { limit: positiveInteger(limitText, '--limit', 'articles') }),
    };
    const offsetText = stringOption(args, 'offset');
    // Sent only when given: the API documents no paging.
    const offset = offsetText === undefined ? undefined : nonNegativeInteger(offsetText, '--offset', 'articles');
    const page = await (await context.client()).articlesPage(site, query, offset);
    if (moreArticles(page, query, offset)) context.log(morePages(page, site, query, offset ?? 0));
    return printResult(context, page.results, (rows) =>
      table(rows, [
        // Never cut: the slug is what `article <site> <slug>` takes (a cut one answers 404).
        { header: 'SLUG', value: (a) => a.slug, max: Number.POSITIVE_INFINITY },
        { header: 'TITLE', value: (a) => a.title, max: 50 },
        { header: 'LANG', value: (a) => a.language },
        { header: 'PUBLISHED', value: (a) => a.published_at },
        { header: 'VIEWS', value: (a) => a.view_count },
        { header: 'STATUS', value: (a) => a.status },
      ]),
    );
  },
};

export const articleCommand: CommandSpec = {
  name: 'article',
  summary: 'show one article (metadata; the full HTML with --json or --html)',
  usage: '<site> <slug> [--html]',
  options: { html: { type: 'boolean', description: "print the article's HTML content after the metadata" } },
  positionals: ['site', 'slug'],
  examples: [
    'content-publisher article 12 my-first-post',
    'content-publisher article 12 my-first-post --json | jq -r .content',
  ],
  async run(context, args) {
    const site = siteArgument(args, 'article');
    const slug = args.positionals[1] ?? '';
    const article = await (await context.client()).article(site, slug);
    const record = article as Record<string, unknown>;
    const text = (name: string) =>
      typeof record[name] === 'string' || typeof record[name] === 'number'
        ? (record[name] as string | number)
        : undefined;
    const keywords = Array.isArray(record.keywords) ? record.keywords.join(', ') : undefined;
    return printResult(
      context,
      article,
      () =>
        keyValues([
          ['title', article.title],
          ['slug', article.slug],
          ['url', text('url')],
          ['status', text('status')],
          ['language', text('language')],
          ['published', text('published_at')],
          ['updated', text('updated_at')],
          ['views', text('view_count')],
          ['keywords', keywords],
          ['excerpt', text('excerpt')],
          ['content', `${article.content.length} characters of HTML${args.values.html ? '' : ' (--html to print it)'}`],
        ]) + (args.values.html ? `\n${article.content}\n` : ''),
    );
  },
};
