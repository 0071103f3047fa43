/**
 * `watch --invalidate URL`: the blog's invalidation endpoint, with its token read from the environment
 * (`PUBLISHER_INVALIDATE_TOKEN`, or the variable named by `--invalidate-token-env`) so that it stays out of the
 * process list and shell history. No message here contains the token.
 */
import type { ParsedArgs } from '../command.js';
import { stringOption } from '../args.js';
import { UsageError } from '../usage-error.js';
import { isLoopbackHost } from '../../client/cleartext.js';
import { describeHookUrl, type TriggerSpec } from '../../watch/index.js';

export const DEFAULT_TOKEN_ENV = 'PUBLISHER_INVALIDATE_TOKEN';

export function invalidateTriggerFromArgs(
  args: ParsedArgs,
  env: NodeJS.ProcessEnv = process.env,
): Extract<TriggerSpec, { kind: 'invalidate' }> | undefined {
  const url = stringOption(args, 'invalidate');
  const variable = stringOption(args, 'invalidate-token-env');
  if (url === undefined) {
    if (variable !== undefined) throw new UsageError('--invalidate-token-env needs --invalidate URL.', 'watch');
    return undefined;
  }
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    // reported below
  }
  if (!parsed || (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && isLoopbackHost(parsed.hostname))))
    throw new UsageError(
      // The origin only (describeHookUrl): the rest of a URL pasted by mistake may hold a secret.
      `--invalidate must be an https URL (plain http only to this machine: the token would travel in cleartext), such as https://blog.example.com/_publisher/invalidate (got ${describeHookUrl(url)}).`,
      'watch',
    );
  const name = variable ?? DEFAULT_TOKEN_ENV;
  const token = env[name]?.trim();
  if (!token)
    throw new UsageError(
      `--invalidate needs the endpoint's token in the environment variable ${name} (the blog's PUBLISHER_INVALIDATE_TOKEN).`,
      'watch',
    );
  if (token.length < 16)
    throw new UsageError(
      `the token in ${name} is shorter than 16 characters: the blog refuses it. Use a random secret.`,
      'watch',
    );
  return { kind: 'invalidate', url: parsed.href, token, timeoutMs: 30_000 };
}
