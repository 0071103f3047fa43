/** `me` and `sites`: who the token belongs to, and which sites it can reach. */
import type { CommandSpec } from '../command.js';
import { keyValues, table } from '../format.js';
import { EXIT } from '../exit-codes.js';

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
    if (context.json) {
      context.printJson(account);
      return EXIT.ok;
    }
    const usage = account.usage;
    const rate = client.rateLimit;
    context.print(
      keyValues([
        ['username', account.username],
        ['email', account.email],
        ['plan', account.plan],
        ['rate limit', `${account.rate_limit_per_hour} requests/hour${rate ? ` (${rate.remaining} left in this window)` : ''}`],
        [
          'articles this month',
          usage
            ? `${usage.articles_this_month} of ${usage.articles_per_month_limit} (${usage.month_key})`
            : 'not reported by the service',
        ],
      ]),
    );
    return EXIT.ok;
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
    if (context.json) {
      context.printJson(sites);
      return EXIT.ok;
    }
    context.print(
      table(sites, [
        { header: 'ID', value: (site) => site.id },
        { header: 'NAME', value: (site) => site.name },
        { header: 'DOMAIN', value: (site) => site.domain },
        { header: 'CMS', value: (site) => (site.is_cms === undefined ? undefined : site.is_cms ? 'yes' : 'no') },
      ]),
    );
    return EXIT.ok;
  },
};
