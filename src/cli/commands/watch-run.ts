/**
 * The run of `watch` (its spec, options and help are in watch.ts): turns the command line into the loop's
 * options (the loop itself lives in src/watch/), prints its events and maps a `--once` outcome to an exit code.
 * Loaded only when watch runs, with the feed parsers behind it.
 */
import { resolve } from 'node:path';
import { positiveInteger, stringOption } from '../args.js';
import type { ParsedArgs } from '../command.js';
import type { CommandContext } from '../context.js';
import { EXIT } from '../exit-codes.js';
import { UsageError } from '../usage-error.js';
import { hookDetailsFromArgs, hookUrlFromArgs } from './watch-hook.js';
import { invalidateTriggerFromArgs } from './watch-invalidate.js';
import {
  defaultStatePath,
  describeTrigger,
  formatDuration,
  MAX_TIMER_MS,
  parseDuration,
  runWatch,
  stopRunningCommands,
  type TriggerSpec,
} from '../../watch/index.js';
import { createWatchLog, timeOfDay } from './watch-lines.js';

function duration(text: string | undefined, fallback: number, name: string, min: number): number {
  if (text === undefined) return fallback;
  const ms = parseDuration(text);
  // Above MAX_TIMER_MS Node fires a timer after 1 ms instead: refuse rather than poll in a tight loop.
  if (ms === undefined || ms < min || ms > MAX_TIMER_MS) {
    const range = min > 0 ? `between ${formatDuration(min)} and 24 days` : 'of at most 24 days';
    throw new UsageError(
      `--${name} must be a duration like 200ms, 30s, 5m or 1h, ${range} (got ${JSON.stringify(text)}).`,
      'watch',
    );
  }
  return ms;
}

export async function runWatchCommand(context: CommandContext, args: ParsedArgs): Promise<number> {
  // As for the loaders and the integration, PUBLISHER_SITE_ID stands for the option.
  const siteOption = stringOption(args, 'site');
  const siteText = siteOption ?? (context.io.env.PUBLISHER_SITE_ID?.trim() || undefined);
  if (siteText === undefined) throw new UsageError('--site ID (or PUBLISHER_SITE_ID) is required.', 'watch');
  const site = positiveInteger(siteText, siteOption === undefined ? 'PUBLISHER_SITE_ID' : '--site', 'watch');
  const command = stringOption(args, 'run');
  const hook = hookUrlFromArgs(args);
  const invalidate = invalidateTriggerFromArgs(args);
  if (command !== undefined && hook !== undefined)
    throw new UsageError('watch takes --run "CMD" or --hook URL, not both.', 'watch');
  if (command === undefined && hook === undefined && invalidate === undefined)
    throw new UsageError(
      'watch needs --run "CMD", --hook URL (or --hook-env VAR, --hook-file FILE), or --invalidate URL.',
      'watch',
    );
  let trigger: TriggerSpec | undefined;
  if (hook !== undefined) {
    let protocol = '';
    try {
      protocol = new URL(hook).protocol;
    } catch {
      // reported below
    }
    if (protocol !== 'http:' && protocol !== 'https:') throw new UsageError('--hook must be an http(s) URL.', 'watch');
    trigger = {
      kind: 'hook',
      url: hook,
      timeoutMs: duration(stringOption(args, 'hook-timeout'), 30_000, 'hook-timeout', 1),
      ...hookDetailsFromArgs(args, hook),
    };
  } else if (command !== undefined) {
    if (!command.trim()) throw new UsageError('--run needs a command.', 'watch');
    trigger = { kind: 'run', command };
  }
  const triggers = [trigger, invalidate].filter((t): t is TriggerSpec => t !== undefined);
  const intervalMs = duration(stringOption(args, 'interval'), 5 * 60_000, 'interval', 100);
  const debounceMs = duration(stringOption(args, 'debounce'), 30_000, 'debounce', 0);
  const stateText = stringOption(args, 'state');
  const statePath = stateText !== undefined ? resolve(stateText) : defaultStatePath(site);
  const once = args.values.once === true;
  const triggerOnFirstRun = args.values['trigger-on-first-run'] === true;
  const baseUrl = context.baseUrl();
  const log = createWatchLog();
  const fetcher = context.publicClient({ showRetries: () => !log.inOutage() });

  const controller = new AbortController();
  const stamp = () => `[watch ${timeOfDay(new Date())}]`;
  // Between the report of the changes and that of the trigger's result, the trigger runs.
  let triggering = false;
  let signals = 0;
  // The first Ctrl-C (or SIGTERM) stops after a running trigger, which is then recorded; saying so, since a
  // build can take minutes. A second one stops now: the command's process group is stopped with the
  // watcher (left alone, the build would go on writing the output after the watcher exited), and the
  // change, not recorded, triggers again on the next run.
  const stop = () => {
    signals += 1;
    if (signals === 1) {
      controller.abort();
      if (triggering)
        context.log(
          `${stamp()} stopping once the running ${describeTrigger(triggers)} finishes (its result is then recorded); press Ctrl-C again to stop it now`,
        );
      return;
    }
    if (triggering) {
      const stopped = stopRunningCommands();
      context.log(
        `${stamp()} stopped${stopped > 0 ? ' the running command' : ' without waiting for the trigger'}; the change is not recorded and triggers again on the next run`,
      );
    } else context.log(`${stamp()} stopped`);
    process.exit(EXIT.interrupted);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  if (!once)
    context.log(`watching site ${site} every ${formatDuration(intervalMs)}; trigger: ${describeTrigger(triggers)}`);
  try {
    const outcome = await runWatch({
      siteId: site,
      baseUrl,
      fetcher,
      trigger: triggers.length === 1 ? triggers[0]! : triggers,
      statePath,
      intervalMs,
      debounceMs,
      once,
      triggerOnFirstRun,
      stdoutToStderr: context.json,
      signal: controller.signal,
      report: (event) => {
        if (event.event === 'changes' || (event.event === 'baseline' && triggerOnFirstRun)) triggering = true;
        else if (event.event === 'triggered' || event.event === 'trigger-failed') triggering = false;
        // Continuous --json: one JSON line per event, every failure included; --once --json: only the final
        // document. The log follows the outages either way: it decides when the client's retry notices show.
        const line = log.line(event);
        if (context.json && !once) context.printJsonLine({ at: new Date().toISOString(), ...event });
        else if (line !== undefined) context.log(`${stamp()} ${line}`);
      },
    });
    if (!outcome) return EXIT.ok;
    const exitCode =
      outcome.outcome === 'triggered'
        ? EXIT.ok
        : outcome.outcome === 'trigger-failed'
          ? EXIT.triggerFailed
          : outcome.outcome === 'baseline' && outcome.triggered
            ? EXIT.ok
            : EXIT.unchanged;
    if (context.json) context.printJson({ ...outcome, exitCode });
    return exitCode;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}
