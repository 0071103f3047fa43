/**
 * `watch`'s deploy hook from the command line: the URL given directly (`--hook`), or, so that the secret stays
 * out of the process list and shell history, read from an environment variable (`--hook-env NAME`) or a
 * file (`--hook-file PATH`). The provider is inferred from the URL or named (`--hook-provider`); GitHub's
 * repository_dispatch takes its token from the environment (`--hook-token-env`, default GITHUB_TOKEN).
 * No message here ever contains the URL or the token.
 */
import { readFileSync } from 'node:fs';
import type { ParsedArgs } from '../command.js';
import { stringOption } from '../args.js';
import { UsageError } from '../usage-error.js';
import { expandHookShorthand, HOOK_PROVIDERS, inferHookProvider, type HookProvider } from '../../watch/hook-request.js';

export const HOOK_OPTIONS = {
  hook: {
    type: 'string',
    placeholder: 'URL',
    description:
      'deploy hook to POST to on a change (2xx expected); prefer --hook-env or --hook-file: a URL in argv is visible to other processes',
  },
  'hook-env': {
    type: 'string',
    placeholder: 'VAR',
    description: 'read the deploy hook URL from this environment variable',
  },
  'hook-file': {
    type: 'string',
    placeholder: 'FILE',
    description: 'read the deploy hook URL from the first line of this file',
  },
  'hook-provider': {
    type: 'string',
    placeholder: 'NAME',
    description: `the hook's host: ${HOOK_PROVIDERS.join(', ')} (default: from the URL; github:OWNER/REPO also works as the hook)`,
  },
  'hook-token-env': {
    type: 'string',
    placeholder: 'VAR',
    description: 'environment variable holding the bearer token (github: default GITHUB_TOKEN)',
  },
} as const;

/** The hook URL from whichever of --hook, --hook-env, --hook-file was given (undefined: none). */
export function hookUrlFromArgs(args: ParsedArgs, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const given = (['hook', 'hook-env', 'hook-file'] as const).filter((name) => stringOption(args, name) !== undefined);
  if (given.length > 1)
    throw new UsageError(
      `give the deploy hook once: ${given.map((n) => `--${n}`).join(' and ')} were both given.`,
      'watch',
    );
  const direct = stringOption(args, 'hook');
  if (direct !== undefined) return expandHookShorthand(direct);
  const variable = stringOption(args, 'hook-env');
  if (variable !== undefined) {
    const value = env[variable]?.trim();
    if (!value)
      throw new UsageError(
        `--hook-env ${variable}: the environment variable ${variable} is not set or empty.`,
        'watch',
      );
    return expandHookShorthand(value);
  }
  const file = stringOption(args, 'hook-file');
  if (file === undefined) return undefined;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(
      `--hook-file ${JSON.stringify(file)} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}).`,
      'watch',
    );
  }
  const line = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .find((l) => l && !l.startsWith('#'));
  if (!line) throw new UsageError(`--hook-file ${JSON.stringify(file)} holds no URL.`, 'watch');
  return expandHookShorthand(line);
}

/** Provider and token for a hook URL; the messages name the flag and the variable, never the values. */
export function hookDetailsFromArgs(
  args: ParsedArgs,
  url: string,
  env: NodeJS.ProcessEnv = process.env,
): { provider: HookProvider; token?: string } {
  const named = stringOption(args, 'hook-provider');
  if (named !== undefined && !(HOOK_PROVIDERS as readonly string[]).includes(named)) {
    throw new UsageError(
      `--hook-provider must be one of ${HOOK_PROVIDERS.join(', ')} (got ${JSON.stringify(named)}).`,
      'watch',
    );
  }
  const provider = (named as HookProvider | undefined) ?? inferHookProvider(url);
  const tokenVariable = stringOption(args, 'hook-token-env') ?? (provider === 'github' ? 'GITHUB_TOKEN' : undefined);
  const token = tokenVariable ? env[tokenVariable]?.trim() : undefined;
  if (tokenVariable && !token) {
    throw new UsageError(
      `the ${provider} deploy hook needs a token: set the environment variable ${tokenVariable}${provider === 'github' ? " (a token allowed to write the repository's contents)" : ''}.`,
      'watch',
    );
  }
  return token ? { provider, token } : { provider };
}
