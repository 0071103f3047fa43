/**
 * `watch`: poll the public RSS feed and sitemap (no API key) and run a build command or POST a deploy hook
 * when something changed. This file is the command's spec (its options and help); the run is in watch-run.ts.
 */
import type { CommandSpec } from '../command.js';
import { HOOK_OPTIONS } from './watch-hook.js';

export const watchCommand: CommandSpec = {
  name: 'watch',
  summary:
    "poll a site's public RSS feed and sitemap; run a command, a deploy hook or a cache invalidation when they change",
  usage:
    '--site ID [--run "CMD" | --hook URL | --hook-env VAR | --hook-file FILE] [--invalidate URL] [--hook-provider NAME] [--interval 5m] [--debounce 30s] [--state FILE] [--once] [--trigger-on-first-run]',
  details:
    'A change is a new article, a changed publication date or content, an article unpublished from the feed\n' +
    '(not one that aged out of the 50 newest), or a newer sitemap lastmod (updates of older articles).\n' +
    'Requests are conditional (ETag / If-Modified-Since): an unchanged feed costs a 304. No API key is used.\n' +
    'The state file is written only after a successful trigger, so a failed build is retried on the next\n' +
    'poll and a restart does not trigger twice. The first run records a baseline and does not trigger\n' +
    '(unless --trigger-on-first-run). --once checks once: exit 0 triggered, 3 nothing to do (or baseline\n' +
    'recorded), 13 the trigger failed, 7/8/9/10/11/12 the feed could not be read (unknown site, 429, 502,\n' +
    'other 5xx, network, not a feed), 2 bad option or unreadable state file. SIGINT/SIGTERM (Ctrl-C) stop\n' +
    'after a running trigger finishes: the command runs in its own process group, so Ctrl-C spares it. A\n' +
    'second Ctrl-C stops at once (exit 130), the command too; that change is then triggered again next run.\n' +
    '--invalidate URL (an on-demand blog with publisher({ invalidate: true }) and a cache provider) POSTs the\n' +
    "changed articles' cache tags, and the lists', sitemap's and feed's, to the blog's endpoint with the token\n" +
    'from PUBLISHER_INVALIDATE_TOKEN (or --invalidate-token-env VAR); with --run or --hook it runs after them.',
  options: {
    site: { type: 'string', placeholder: 'ID', description: 'the site id (required; default PUBLISHER_SITE_ID)' },
    run: {
      type: 'string',
      placeholder: 'CMD',
      description: 'shell command to run on a change (own process group, no stdin; exit code checked)',
    },
    ...HOOK_OPTIONS,
    'hook-timeout': { type: 'string', placeholder: 'DUR', description: 'timeout of the hook request (default 30s)' },
    invalidate: {
      type: 'string',
      placeholder: 'URL',
      description: "the blog's invalidation endpoint, e.g. https://blog.example.com/_publisher/invalidate",
    },
    'invalidate-token-env': {
      type: 'string',
      placeholder: 'VAR',
      description: 'environment variable holding the endpoint token (default PUBLISHER_INVALIDATE_TOKEN)',
    },
    interval: {
      type: 'string',
      placeholder: 'DUR',
      description: 'time between polls: 200ms, 30s, 5m, 1h (default 5m)',
    },
    debounce: {
      type: 'string',
      placeholder: 'DUR',
      description: 'wait this long after a change to group a burst (default 30s; not with --once)',
    },
    state: {
      type: 'string',
      placeholder: 'FILE',
      description: 'state file (default .content-publisher-watch-<site>.json)',
    },
    once: { type: 'boolean', description: 'check once and exit (for cron and scheduled CI)' },
    'trigger-on-first-run': { type: 'boolean', description: 'also trigger when no state file exists yet' },
  },
  positionals: [],
  examples: [
    'content-publisher watch --site 12 --run "npm run build" --interval 5m',
    'content-publisher watch --site 12 --once --hook-env DEPLOY_HOOK --state .cache/watch-12.json',
    'GITHUB_TOKEN=... content-publisher watch --site 12 --hook github:OWNER/REPO',
    'PUBLISHER_INVALIDATE_TOKEN=... content-publisher watch --site 12 --invalidate https://blog.example.com/_publisher/invalidate',
  ],
  // The loop and the feed parsers load only when watch runs: every other command, and --help, skip them.
  async run(context, args) {
    const { runWatchCommand } = await import('./watch-run.js');
    return runWatchCommand(context, args);
  },
};
