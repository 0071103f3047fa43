/** `me` and `sites`: who the token belongs to, and which sites it can reach. */
import type { CommandSpec } from '../command.js';
import { keyValues, table } from '../format.js';
import { printResult } from '../result.js';

export const meCommand: CommandSpec = {
  name: 'me',
  summary: 'show the account of the API key: plan, rate limit and monthly article quota',
  usage: '',
  options: {},
  positionals: [],
  examples: ['content-publisher me', 'content-publisher me --json | jq .plan'],
  async run(context) {
    const client = await context.client();
    const account = await client.me();
    const rate = client.rateLimit;
    return printResult(context, account, ({ usage }) =>
      keyValues([
        ['username', account.username],
        ['email', account.email],
        ['plan', account.plan],
        [
          'rate limit',
          `${account.rate_limit_per_hour} requests/hour${rate ? ` (${rate.remaining} left in this window)` : ''}`,
        ],
        [
          'articles this month',
          usage
            ? `${usage.articles_this_month} of ${usage.articles_per_month_limit} (${usage.month_key})`
            : 'not reported by the service',
        ],
      ]),
    );
  },
};

export const sitesCommand: CommandSpec = {
  name: 'sites',
  summary: "list the account's active sites (their ids are the <site> of the other commands)",
  usage: '',
  options: {},
  positionals: [],
  examples: ['content-publisher sites', 'content-publisher sites --json'],
  async run(context) {
    const sites = await (await context.client()).sites();
    return printResult(context, sites, (rows) =>
      table(rows, [
        { header: 'ID', value: (site) => site.id },
        { header: 'NAME', value: (site) => site.name },
        { header: 'DOMAIN', value: (site) => site.domain },
        { header: 'CMS', value: (site) => (site.is_cms === undefined ? undefined : site.is_cms ? 'yes' : 'no') },
      ]),
    );
  },
};
