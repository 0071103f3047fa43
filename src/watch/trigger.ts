/**
 * What the watcher does when something changed: run a command (a build) or POST to a deploy hook.
 * Success is checked (exit code 0, HTTP 2xx); a failure leaves the state uncommitted so the next poll
 * retries the same change.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readBodyCapped } from '../client/read-body.js';
import { cacheTags } from '../loader/process/cache-tags.js';
import { WATCH_REPORT_ENV } from '../loader/process/watch-report.js';
import { changedArticles, type Change } from './detect.js';
import { buildHookRequest, describeNetworkError, inferHookProvider } from './hook-request.js';
import { buildInvalidateRequest, describeInvalidateStatus, invalidationTags } from './invalidate-request.js';

import type { TriggerSetting, TriggerSpec } from './options.js';

export type { TriggerSetting, TriggerSpec };

export type TriggerResult = { ok: true; detail: string } | { ok: false; detail: string };

export interface TriggerContext {
  site: number;
  /**
   * What changed. The command's PUBLISHER_WATCH_CHANGES and the hook's `changes` count the articles
   * (changedArticles): the feed and the sitemap both report one edit.
   */
  changes: readonly Change[];
  /** Send the command's stdout to our stderr, so that stdout stays machine-readable (`--json`). */
  stdoutToStderr: boolean;
}

/**
 * The invalidation endpoint's URL for display. Its path when it ends as the endpoint's does (`.../invalidate`,
 * the token travels in a header and a wrong path is the usual mistake), else the origin only, as for a hook: a
 * deploy hook's URL pasted here by mistake carries its secret in the path. Never the query.
 */
export function describeInvalidateUrl(url: string): string {
  const parsed = URL.parse(url);
  if (!parsed) return '(invalid URL)';
  return /\/invalidate\/?$/.test(parsed.pathname) ? `${parsed.origin}${parsed.pathname}` : describeHookUrl(url);
}

function describeUnconfirmedInvalidation(url: string, status: number): string {
  return `answered ${status}, but not as the invalidation endpoint does (no {"invalidated": [...]} naming the tags sent): is ${describeInvalidateUrl(url)} the path of publisher({ invalidate: true }) (by default /_publisher/invalidate)?`;
}

/** Deploy hook URLs carry their secret in the path: logs show only the origin. */
export function describeHookUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.pathname === '/' && !parsed.search ? parsed.origin : `${parsed.origin}/…`;
  } catch {
    return '(invalid URL)';
  }
}

export function describeTrigger(setting: TriggerSetting): string {
  if (Array.isArray(setting)) return setting.map(describeTrigger).join(', then ');
  const spec = setting;
  if (spec.kind === 'run') return `command \`${spec.command}\``;
  if (spec.kind === 'invalidate') return `cache invalidation at ${describeInvalidateUrl(spec.url)}`;
  const provider = spec.provider ?? inferHookProvider(spec.url);
  return `${provider === 'generic' ? '' : `${provider} `}deploy hook ${describeHookUrl(spec.url)}`;
}

/** Runs the trigger, or each of several in order until one fails (the details of all are joined). */
export async function runTrigger(setting: TriggerSetting, context: TriggerContext): Promise<TriggerResult> {
  if (!Array.isArray(setting)) return runOne(setting, context);
  const details: string[] = [];
  for (const spec of setting) {
    const result = await runOne(spec, context);
    if (!result.ok)
      return { ok: false, detail: setting.length > 1 ? `${describeTrigger(spec)}: ${result.detail}` : result.detail };
    details.push(result.detail);
  }
  return { ok: true, detail: details.join('; ') };
}

/**
 * An answer whose body is not needed (it may echo the secret): cancelled, not read, so that an endless or huge
 * body neither holds the trigger until its timeout nor fills memory. A hook's status is all that counts (the
 * invalidation endpoint's answer is read, bounded: confirmsInvalidation).
 */
async function discardBody(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => undefined);
}

function runOne(spec: TriggerSpec, context: TriggerContext): Promise<TriggerResult> {
  if (spec.kind === 'run') return runCommand(spec.command, context);
  if (spec.kind === 'invalidate') return postInvalidate(spec, context);
  return postHook(spec, context);
}

async function postInvalidate(
  spec: Extract<TriggerSpec, { kind: 'invalidate' }>,
  context: TriggerContext,
): Promise<TriggerResult> {
  const tags = invalidationTags(context.site, context.changes);
  const first = await sendInvalidate(spec, tags);
  const siteTag = [cacheTags.site(context.site)];
  // A refusal of the body (an older endpoint's shorter tag limit, say) answers the same to every retry: each poll
  // would rebuild and fail for ever while no page is purged. The site's one short tag covers every change.
  if (!first.ok && first.refused && tags.join() !== siteTag.join()) {
    const fallback = await sendInvalidate(spec, siteTag);
    if (!fallback.ok) return fallback;
    return {
      ok: true,
      detail: `${describeInvalidateUrl(spec.url)} refused the article tags (${first.status}); invalidated the site's tag ${siteTag[0]} instead (every page of the site renders again)`,
    };
  }
  return first;
}

/** Statuses that refuse the request itself: the same tags would be refused again. */
const REFUSED = new Set([400, 413, 422]);

async function sendInvalidate(
  spec: Extract<TriggerSpec, { kind: 'invalidate' }>,
  tags: readonly string[],
): Promise<TriggerResult & { refused?: boolean; status?: number }> {
  const request = buildInvalidateRequest(spec.url, spec.token, tags);
  try {
    const response = await fetch(request.url, {
      ...request.init,
      redirect: 'manual',
      signal: AbortSignal.timeout(spec.timeoutMs),
    });
    if (!response.ok) {
      await discardBody(response);
      return {
        ok: false,
        detail: describeInvalidateStatus(response.status),
        refused: REFUSED.has(response.status),
        status: response.status,
      };
    }
    // Any page answers 200 to a POST on some hosts: only the endpoint's own answer says the tags were purged.
    if (!(await confirmsInvalidation(response, tags)))
      return { ok: false, detail: describeUnconfirmedInvalidation(spec.url, response.status) };
    return {
      ok: true,
      detail: `${describeInvalidateUrl(spec.url)} invalidated ${tags.length} tag(s) (answered ${response.status})`,
    };
  } catch (error) {
    const name = (error as Error).name;
    if (name === 'TimeoutError' || name === 'AbortError')
      return { ok: false, detail: `no answer within ${spec.timeoutMs} ms` };
    return { ok: false, detail: describeNetworkError(error) };
  }
}

/** The endpoint's answer is small (`{"invalidated":[...the tags sent]}`): more than this is not its answer. */
const MAX_INVALIDATE_ANSWER_BYTES = 512 * 1024;

/**
 * Whether the answer is the invalidation endpoint's (`{"invalidated": [...]}`, every tag sent among them). Read up
 * to MAX_INVALIDATE_ANSWER_BYTES (readBodyCapped) and never shown (a page may echo anything).
 */
async function confirmsInvalidation(response: Response, tags: readonly string[]): Promise<boolean> {
  const body = await readBodyCapped(response, MAX_INVALIDATE_ANSWER_BYTES);
  if (!body.ok) return false;
  let answer: unknown;
  try {
    answer = JSON.parse(body.text);
  } catch {
    return false;
  }
  const invalidated = (answer as { invalidated?: unknown } | null)?.invalidated;
  return Array.isArray(invalidated) && tags.every((tag) => invalidated.includes(tag));
}

/** The `--run` commands running now, each the leader of its own process group. */
const runningCommands = new Set<ChildProcess>();

/**
 * Stops the running `--run` commands (SIGTERM to each one's process group: the shell and the build it
 * started) and returns how many there were. For a second Ctrl-C: the watcher exits at once, and a build it
 * left running in its own process group would go on writing the output unseen.
 */
export function stopRunningCommands(): number {
  let stopped = 0;
  for (const child of runningCommands) {
    if (child.pid === undefined) continue;
    try {
      process.kill(-child.pid, 'SIGTERM');
      stopped += 1;
    } catch {
      // Already gone.
    }
  }
  return stopped;
}

/**
 * What the loaders of the build said they left undone (src/loader/process/watch-report.ts), one line per loader and
 * problem, read and removed; empty when the file is missing (a build without articlesLoader).
 */
function readUndone(file: string): string[] {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
    rmSync(file, { force: true });
  } catch {
    return [];
  }
  const lines = new Set<string>();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const { site, undone } = JSON.parse(line) as { site?: unknown; undone?: unknown };
      lines.add(`${String(site)}: ${String(undone)}`);
    } catch {
      lines.add(line.slice(0, 200));
    }
  }
  return [...lines];
}

function runCommand(command: string, context: TriggerContext): Promise<TriggerResult> {
  const report = join(tmpdir(), `content-publisher-watch-${process.pid}-${randomUUID()}.jsonl`);
  return new Promise((resolve) => {
    const child = spawn(command, {
      shell: true,
      // Its own process group (detached): a Ctrl-C in the terminal goes to the foreground group, the
      // watcher's, and must not kill a half-done build; the watcher stops once the command finished.
      // No terminal input either: a trigger runs unattended.
      detached: true,
      stdio: ['ignore', context.stdoutToStderr ? process.stderr : 'inherit', 'inherit'],
      // The build may read these to log why it runs; the API key stays in the environment on purpose:
      // the build's loader needs it.
      env: {
        ...process.env,
        PUBLISHER_WATCH_SITE: String(context.site),
        PUBLISHER_WATCH_CHANGES: String(changedArticles(context.changes)),
        [WATCH_REPORT_ENV]: report,
      },
    });
    runningCommands.add(child);
    child.once('error', (error) => {
      runningCommands.delete(child);
      resolve({ ok: false, detail: `could not start: ${error.message}` });
    });
    child.once('close', (code, signal) => {
      runningCommands.delete(child);
      const undone = readUndone(report);
      if (code !== 0) resolve({ ok: false, detail: signal ? `stopped by ${signal}` : `exit code ${code}` });
      else if (undone.length === 0) resolve({ ok: true, detail: 'exit code 0' });
      // The build kept stale articles: the change is not done until a build fetched it.
      else resolve({ ok: false, detail: `exit code 0, but the build left the change undone (${undone.join('; ')})` });
    });
  });
}

async function postHook(spec: Extract<TriggerSpec, { kind: 'hook' }>, context: TriggerContext): Promise<TriggerResult> {
  const where = describeHookUrl(spec.url);
  const provider = spec.provider ?? inferHookProvider(spec.url);
  try {
    const request = buildHookRequest({
      url: spec.url,
      provider,
      token: spec.token,
      eventType: spec.eventType,
      site: context.site,
      changes: changedArticles(context.changes),
    });
    const response = await fetch(request.url, {
      ...request.init,
      redirect: 'manual',
      signal: AbortSignal.timeout(spec.timeoutMs),
    });
    await discardBody(response);
    if (response.ok) return { ok: true, detail: `${where} answered ${response.status}` };
    return { ok: false, detail: `answered ${response.status}` };
  } catch (error) {
    const name = (error as Error).name;
    if (name === 'TimeoutError' || name === 'AbortError')
      return { ok: false, detail: `no answer within ${spec.timeoutMs} ms` };
    // Never fetch's message: it can quote the URL, credentials and all.
    return { ok: false, detail: describeNetworkError(error) };
  }
}
