import { parseArgs } from 'node:util';
import { SITES } from './accounts.js';
import { startSimulator } from './server.js';
import { simulatorOptionsSchema, type SimulatorOptions } from './options.js';
import { withPrefix } from '../options/prefix.js';
import { PROFILE_NAMES, serviceVariantsSchema, VARIANTS_HELP } from './variants.js';

const USAGE = `Usage: content-publisher simulator [--port 0] [--seed 1] [--articles 30] [--rate-limits first|second]
                                   [--window-ms 3600000] [--generate-delay-ms 50] [--rate-limit-override N]
                                   [--extra-pro-token btb_leakcheck_1 ...]
                                   [--profile ${PROFILE_NAMES.join('|')}] [--variant key=value ...]

Starts the local simulator of the content-publishing service on 127.0.0.1, prints one JSON line
{"url","tokens","sites"} on stdout, and serves until SIGINT or SIGTERM.

${VARIANTS_HELP}`;

const INTEGER_FLAGS = {
  port: 'port',
  seed: 'seed',
  articles: 'articles',
  'window-ms': 'windowMs',
  'generate-delay-ms': 'generateDelayMs',
  'rate-limit-override': 'rateLimitOverride',
} as const;

/** What each variant takes, as `--help` lists it (`listMax=N|none [1000]` -> `N|none`). */
const VARIANT_VALUES: Record<string, string> = Object.fromEntries(
  [...VARIANTS_HELP.matchAll(/([A-Za-z]+)=(\S+) \[/g)].map((match) => [match[1]!, match[2]!]),
);

/** The flag behind an option, for messages (`windowMs` -> `--window-ms`). */
function flagOf(option: string): string {
  const integer = Object.entries(INTEGER_FLAGS).find(([, key]) => key === option)?.[0];
  return `--${integer ?? option.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

/**
 * Checks the parsed flags against the options schema, so a bad value is a usage error naming the flag
 * (not an error from startSimulator() about its options).
 */
function flagProblem(options: Record<string, unknown>, rawVariants: Record<string, string>): string | undefined {
  const profile = options.profile;
  if (typeof profile === 'string' && !(PROFILE_NAMES as string[]).includes(profile)) {
    return `\`--profile\` must be one of ${PROFILE_NAMES.join(', ')} (got "${profile}").`;
  }
  const shape = serviceVariantsSchema.shape as Record<string, { safeParse(value: unknown): { success: boolean } }>;
  for (const [key, value] of Object.entries((options.variants ?? {}) as Record<string, unknown>)) {
    const pair = `--variant ${key}=${rawVariants[key]}`;
    if (!Object.hasOwn(shape, key)) {
      return `\`${pair}\`: no variant "${key}". Variants: ${Object.keys(shape).join(', ')}.`;
    }
    if (!shape[key]!.safeParse(value).success) {
      return `\`${pair}\`: ${key} takes ${VARIANT_VALUES[key] ?? 'another value'} (got "${rawVariants[key]}").`;
    }
  }
  const parsed = simulatorOptionsSchema.safeParse(options);
  if (parsed.success) return undefined;
  const issue = parsed.error.issues[0]!;
  const flag = flagOf(String(issue.path[0] ?? ''));
  const got = JSON.stringify(
    issue.path.reduce<unknown>((at, key) => (at as Record<PropertyKey, unknown>)?.[key], options),
  );
  if (issue.code === 'too_big') return `\`${flag}\` must be at most ${String(issue.maximum)} (got ${got}).`;
  if (issue.code === 'too_small') return `\`${flag}\` must be at least ${String(issue.minimum)} (got ${got}).`;
  return `\`${flag}\`: ${issue.message} (got ${got}).`;
}

type Streams = { stdout: Pick<NodeJS.WriteStream, 'write'>; stderr: Pick<NodeJS.WriteStream, 'write'> };

/** Parses the flags into simulator options, or returns the message that names the bad flag. */
export function parseSimulatorArgs(argv: string[]): { options: SimulatorOptions; help: boolean } | { error: string } {
  let values: Record<string, string | boolean | string[] | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: 'string' },
        seed: { type: 'string' },
        articles: { type: 'string' },
        'rate-limits': { type: 'string' },
        'window-ms': { type: 'string' },
        'generate-delay-ms': { type: 'string' },
        'rate-limit-override': { type: 'string' },
        'extra-pro-token': { type: 'string', multiple: true },
        profile: { type: 'string' },
        variant: { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    return { error: `${error instanceof Error ? error.message : String(error)}\n\n${USAGE}` };
  }
  const options: Record<string, unknown> = {};
  for (const [flag, key] of Object.entries(INTEGER_FLAGS)) {
    const raw = values[flag];
    if (typeof raw !== 'string') continue;
    if (!/^\d+$/.test(raw)) return { error: `\`--${flag}\` must be a non-negative integer (got "${raw}").` };
    options[key] = Number(raw);
  }
  const limits = values['rate-limits'];
  if (typeof limits === 'string') {
    if (limits !== 'first' && limits !== 'second')
      return { error: `\`--rate-limits\` must be "first" or "second" (got "${limits}").` };
    options.rateLimits = limits;
  }
  const extra = values['extra-pro-token'];
  if (Array.isArray(extra)) {
    const bad = extra.find((token) => !/^btb_[A-Za-z0-9_-]+$/.test(token));
    if (bad !== undefined)
      return {
        error: `\`--extra-pro-token\` must be a token like btb_leakcheck_1 (btb_ then letters, digits, _ or -).`,
      };
    options.extraProTokens = extra;
  }
  if (typeof values.profile === 'string') options.profile = values.profile;
  const variants = values.variant;
  const rawVariants: Record<string, string> = {};
  if (Array.isArray(variants)) {
    const parsedVariants: Record<string, unknown> = {};
    for (const pair of variants) {
      const match = /^([A-Za-z]+)=(.+)$/.exec(pair);
      if (!match) return { error: `\`--variant\` must be key=value, like listMax=50 (got "${pair}").` };
      const [, key, raw] = match as unknown as [string, string, string];
      // Numbers and booleans as such; flagProblem() names a bad key or value.
      parsedVariants[key] = /^\d+$/.test(raw) ? Number(raw) : raw === 'true' ? true : raw === 'false' ? false : raw;
      rawVariants[key] = raw;
    }
    options.variants = parsedVariants;
  }
  const problem = flagProblem(options, rawVariants);
  if (problem)
    return { error: `${problem} Run \`content-publisher simulator --help\` for the flags and their values.` };
  return { options: options as SimulatorOptions, help: values.help === true };
}

/**
 * `content-publisher simulator`: resolves with the exit code once a signal stopped the server
 * (or at once with 2 on bad flags).
 */
export async function runSimulatorCommand(
  argv: string[],
  streams: Streams = { stdout: process.stdout, stderr: process.stderr },
): Promise<number> {
  const parsed = parseSimulatorArgs(argv);
  if ('error' in parsed) {
    streams.stderr.write(`${withPrefix(parsed.error)}\n`);
    return 2;
  }
  if (parsed.help) {
    streams.stdout.write(`${USAGE}\n`);
    return 0;
  }
  let simulator;
  try {
    simulator = await startSimulator(parsed.options);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // The port is the user's choice: a taken one is a usage error (exit 2), named by its flag.
    const port = parsed.options.port;
    if (/already in use/.test(message) && port !== undefined) {
      streams.stderr.write(
        `${withPrefix(`\`--port ${port}\` is already in use on 127.0.0.1: pick another port, or --port 0 for a free one.`)}\n`,
      );
      return 2;
    }
    streams.stderr.write(`${withPrefix(message)}\n`);
    return 1;
  }
  // Sites that answer 502 by design (their CMS is unreachable), so that a user trying the simulator does not pick one.
  const listed = new Set([...simulator.sites.pro, ...simulator.sites.agence]);
  const cmsUnreachable = SITES.filter((site) => site.cmsUnreachable && listed.has(site.id)).map((site) => site.id);
  streams.stdout.write(
    `${JSON.stringify({ url: simulator.url, tokens: simulator.tokens, sites: simulator.sites, cmsUnreachable })}\n`,
  );
  const running = simulator;
  return new Promise<number>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      running.close().then(
        () => resolve(0),
        () => resolve(1),
      );
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
