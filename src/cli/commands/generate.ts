/**
 * `generate <site>`: costs one article of the monthly quota (or a credit) and takes 60 to 120 s, so it
 * shows the remaining quota and asks first (unless --yes), then shows progress while it waits.
 */
import { ARTICLE_TYPES, type ArticleLength } from '../../client/resources/generate.js';
import { siteArgument, stringOption } from '../args.js';
import type { CommandSpec } from '../command.js';
import { canPrompt, confirm, inCi } from '../confirm.js';
import { EXIT } from '../exit-codes.js';
import { startProgress } from '../progress.js';
import { printResult } from '../result.js';
import { UsageError } from '../usage-error.js';

// The client only exports the type of the lengths; `satisfies` keeps this list in step with it.
const LENGTHS = ['short', 'medium', 'long'] as const satisfies readonly ArticleLength[];

function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], name: string): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new UsageError(`--${name} must be one of ${allowed.join(', ')} (got ${JSON.stringify(value)}).`, 'generate');
  }
  return value as T;
}

export const generateCommand: CommandSpec = {
  name: 'generate',
  summary: 'generate and publish an article (uses one quota unit or credit; takes 60 to 120 s)',
  usage: '<site> (--topic T | --title T) [--type TYPE] [--length L] [--language L] [--keywords K] [--yes]',
  details:
    'Shows the remaining monthly quota first and asks for confirmation on a terminal. Without a terminal\n' +
    '(scripts) or in CI (CI set, even on a pseudo-terminal) pass --yes, otherwise it stops with exit code 2\n' +
    'before spending anything.',
  options: {
    topic: { type: 'string', placeholder: 'T', description: 'subject of the article (or --title)' },
    title: { type: 'string', placeholder: 'T', description: 'title of the article (or --topic)' },
    type: { type: 'string', placeholder: 'TYPE', description: `article type: ${ARTICLE_TYPES.join('|')}` },
    length: { type: 'string', placeholder: 'L', description: `length: ${LENGTHS.join('|')}` },
    language: { type: 'string', placeholder: 'L', description: 'language code, e.g. en' },
    keywords: { type: 'string', placeholder: 'K', description: 'keywords separated by commas' },
    yes: { type: 'boolean', short: 'y', description: 'do not ask for confirmation' },
  },
  positionals: ['site'],
  examples: ['content-publisher generate 12 --topic "Static sites in 2026" --type guide --length medium --yes'],
  async run(context, args) {
    const site = siteArgument(args, 'generate');
    const topic = stringOption(args, 'topic');
    const title = stringOption(args, 'title');
    if (!topic?.trim() && !title?.trim()) throw new UsageError('generate needs --topic T or --title T.', 'generate');
    const type = oneOf(stringOption(args, 'type'), ARTICLE_TYPES, 'type');
    const length = oneOf(stringOption(args, 'length'), LENGTHS, 'length');
    const language = stringOption(args, 'language');
    const keywords = stringOption(args, 'keywords');
    const yes = args.values.yes === true;
    // Refuse before any request: a script without --yes must not get as far as spending a request.
    if (!yes && !canPrompt(context.io)) {
      throw new UsageError(
        `generate uses one article of the monthly quota (or a credit): pass --yes to confirm when not running in a terminal${inCi(context.io.env) ? ' (CI is set: no question is asked in CI)' : ''}.`,
        'generate',
      );
    }

    const client = await context.client();
    const account = await client.me();
    const usage = account.usage;
    const quota = usage
      ? `${Math.max(0, usage.articles_per_month_limit - usage.articles_this_month)} of ${usage.articles_per_month_limit} articles left this month (${usage.month_key})`
      : `not reported by the service (plan ${account.plan})`;
    context.log(`Quota: ${quota}. This uses one article of the quota, or a credit when none is left.`);
    if (!yes) {
      const subject = topic ?? title ?? '';
      if (!(await confirm(context.io, `Generate and publish "${subject}" on site ${site}? It takes 60 to 120 s.`))) {
        context.log('Cancelled: nothing was generated.');
        return EXIT.unchanged;
      }
    }

    const stop = startProgress(context.io.stderr, `Generating on site ${site}`);
    // Ctrl-C stops the wait, not the service: say so. A second Ctrl-C has no listener and ends at once.
    const interrupted = new Error('interrupted');
    const onSigint = () => context.abortRequests(interrupted);
    process.once('SIGINT', onSigint);
    let result;
    try {
      result = await client.generate(site, {
        ...(topic !== undefined && { topic }),
        ...(title !== undefined && { title }),
        ...(type !== undefined && { type }),
        ...(length !== undefined && { length }),
        ...(language !== undefined && { language }),
        ...(keywords !== undefined && { keywords }),
      });
    } catch (error) {
      if (error !== interrupted) {
        stop('failed'); // the error follows on its own line
        throw error;
      }
      stop('interrupted');
      context.log(
        `Interrupted: the service may still generate and publish the article (and use one quota unit or credit): ` +
          `check \`content-publisher articles ${site}\` before running generate again.`,
      );
      return EXIT.interrupted;
    } finally {
      process.off('SIGINT', onSigint);
      stop();
    }
    return printResult(
      context,
      result,
      ({ output, post_count }) => `${output.trimEnd()}\n\nPost count: ${post_count}\n`,
    );
  },
};
