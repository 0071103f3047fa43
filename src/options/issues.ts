/**
 * One formatter for the zod issues of every options boundary. It returns the parts (message, hint, option);
 * each boundary wraps them in its own error class (AstroError in Astro hooks, ConfigError in the loaders and
 * the client, TypeError elsewhere) and adds the package prefix where the message is shown.
 */
import type { z } from 'zod';
import { describeValue } from './redact.js';

export interface OptionProblem {
  /** What is wrong, naming the option: "`siteId` must be a positive integer (got 0)." */
  message: string;
  /** What to do about it. */
  hint: string;
  /** The option at fault as a dotted path (`sitemap.path`), or `options` for the whole object. */
  option: string;
}

export interface IssueContext {
  /** The call that took the options, named in messages and hints: `articlesLoader()`. */
  call: string;
  /** The anchor of the README heading that lists every option and its default (`integration-options`). */
  docs: string;
  /** Environment variables that supply an option the call left out, by option name. */
  env?: Readonly<Record<string, string>>;
  /** Fixes worded for one option, replacing the generic "Fix it in call({ option })". */
  fixes?: Readonly<Record<string, string>>;
  /** The accepted option names, listed after an unknown one. */
  known?: readonly string[];
  /** The options' own name when they are nested in another call's options (`sanitize`). */
  under?: string;
}

type Issue = z.core.$ZodIssue;

/** The published README, whose headings the messages link (`README_URL#integration-options`). */
export const README_URL = 'https://www.npmjs.com/package/astro-content-publisher';

/** The sentence that points at the README heading listing every option of a call (`anchor`). */
export function optionsDocsLine(anchor: string): string {
  return `Every option and its default: ${README_URL}#${anchor}`;
}

/** A value for "(got ...)": short, secrets and URL credentials or queries masked. */
export function describeInput(value: unknown): string {
  if (typeof value === 'string')
    return describeValue(value.replace(/\/\/[^/@]*@/, '//***@').replace(/[?#].*$/, '?...'));
  return describeValue(value);
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) value = (value as Record<PropertyKey, unknown> | undefined | null)?.[key];
  return value;
}

/** The most specific branch of a union ("`sitemap.path` must ..." rather than "expected false"). */
function specific(issue: Issue): Issue {
  if (issue.code !== 'invalid_union') return issue;
  const nested = issue.errors.flat().find((e) => e.path.length > 0);
  return nested ? specific({ ...nested, path: [...issue.path, ...nested.path] }) : issue;
}

/** Turns one zod issue into a message naming the option, a hint with the fix, and the option's path. */
export function formatIssue(raw: Issue, input: unknown, context: IssueContext): OptionProblem {
  const issue = specific(raw);
  const path = [...(context.under ? [context.under] : []), ...issue.path.map(String)].join('.');
  const docs = optionsDocsLine(context.docs);
  const top = (path || 'options').split('.')[0];
  const fix = (option: string) =>
    context.fixes?.[option] ??
    (context.env?.[option]
      ? `Set it in ${context.call.replace(/\(\)$/, '')}({ ${option} }) or the environment variable ${context.env[option]}.`
      : `Fix it in ${context.call.replace(/\(\)$/, '')}({ ${top} }). ${docs}`);
  // A schema that already names its option (the sanitise options) speaks for itself.
  if (issue.message.startsWith('`'))
    return { message: issue.message, hint: fix(path || 'options'), option: path || 'options' };
  if (issue.code === 'unrecognized_keys') {
    const names = issue.keys.map((key) => `\`${path ? `${path}.` : ''}${key}\``).join(', ');
    const option = `${path ? `${path}.` : ''}${issue.keys[0] ?? ''}`;
    const known = context.known ? `Known options: ${context.known.join(', ')}.` : docs;
    return {
      message: `Unknown option ${names} for ${context.call}: remove it or check its spelling.`,
      hint: known,
      option,
    };
  }
  const option = path || 'options';
  const env = context.env?.[option];
  const value = valueAt(input, issue.path);
  if (value === undefined && (env || issue.code === 'invalid_type')) {
    return { message: `\`${option}\` is required.`, hint: fix(option), option };
  }
  // Our schemas word a predicate ("must be ..."); zod's own messages ("Too small: ...") are quoted after "is invalid".
  const said = issue.message.replace(/^Invalid input: /, '');
  const problem = /^(must|may|is|cannot|has|can)\b/.test(said)
    ? said
    : `is invalid: ${said.charAt(0).toLowerCase()}${said.slice(1)}`;
  const got = problem.includes('(got ') || problem.includes('not shown') ? '' : ` (got ${describeInput(value)})`;
  return { message: `\`${option}\` ${problem}${got}.`, hint: fix(option), option };
}
