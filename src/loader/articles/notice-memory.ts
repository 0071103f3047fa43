import { processRecord } from '../process/process-record.js';
import type { SyncState } from '../state/state.js';

/**
 * Warnings about a lasting condition of the service (a list cut short, a slug the list repeats, slugs that cannot
 * be entry ids) are said as warnings when the condition first appears or changes, not on every warm build while
 * nothing changed: a CI log that warns on every build teaches its reader to skip warnings. While the condition
 * stays the same, each build says it again as an info line naming when it was first warned about, so the log
 * of any build still shows it.
 * What was warned is kept in the loader's state (Astro's meta store): a store Astro cleared warns again. With
 * `strict`, every build fails on it while it holds. Pure, unit-tested.
 */

/** The conditions remembered this way (the state's `notices`), one at a time each. */
export type NoticeKind = keyof NonNullable<SyncState['notices']>;

/** What a build says beside its summary. */
export interface Notice {
  level: 'warn' | 'info';
  message: string;
  /**
   * For a warning about a lasting condition: what the condition is, without the counts that move on their own
   * (a list cut short at 50 stays so while the site grows). The same key as the warned one: an info line.
   */
  key?: string;
}

/**
 * What to say of `notice` (of `kind`) in this build, and the state's memory of it kept current: a warning whose
 * key was warned about before (and has held since) becomes an info line; a new key, or one after a build without
 * the condition, is a warning and is remembered. No notice forgets the kind.
 */
export function rememberedNotice(
  state: SyncState,
  kind: NoticeKind,
  notice: Notice | undefined,
  now: number,
  strict: boolean,
): Notice | undefined {
  const warned = state.notices?.[kind];
  const key = notice?.level === 'warn' ? notice.key : undefined;
  if (key === undefined) {
    if (warned && state.notices) {
      delete state.notices[kind];
      if (Object.keys(state.notices).length === 0) delete state.notices;
    }
    return notice;
  }
  if (!strict && warned?.key === key) {
    const date = new Date(warned.at).toISOString().replace('T', ' ').slice(0, 16);
    return {
      level: 'info',
      message: `${notice!.message} (Unchanged since the build of ${date} UTC warned about it; it is warned about again when it changes.)`,
    };
  }
  state.notices = { ...state.notices, [kind]: { key, at: now } };
  return notice;
}

/**
 * For a fact worth saying once (how the service writes a header): `notice` when its key differs from the one
 * remembered for `kind`, else nothing. No notice forgets nothing: the fact may come back in the next build.
 */
export function saidOnce(
  state: SyncState,
  kind: NoticeKind,
  notice: Notice | undefined,
  now: number,
): Notice | undefined {
  if (notice?.key === undefined || state.notices?.[kind]?.key === notice.key) return undefined;
  state.notices = { ...state.notices, [kind]: { key: notice.key, at: now } };
  return notice;
}

/**
 * A fact about the service rather than a loader (how it writes a header) is said by the first loader of the
 * process that sees it: the loaders of one build (one per language) would each say it. `key` names the service
 * and the fact. True the first time.
 */
export function firstInProcess(key: string): boolean {
  const said = processRecord('notices-said', () => new Set<string>());
  if (said.has(key)) return false;
  said.add(key);
  return true;
}
