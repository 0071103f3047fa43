import type { LoaderContext } from 'astro/loaders';
import { PREFIX, withoutPrefix } from '../../options/prefix.js';

/** Thrown when `strict: true` turns a warning into a failure. */
export class StrictModeError extends Error {
  override name = 'StrictModeError';
}

/**
 * Thrown when a collection that was never synced (a first build, a fresh CI cache, a store Astro cleared after a
 * config change) cannot even be listed because the hourly window is spent: an empty collection would deploy a
 * blog without its articles, so the build stops instead.
 */
export class BudgetSpentError extends Error {
  override name = 'BudgetSpentError';
}

export { PREFIX };

/**
 * Warnings go through Astro's logger; with `strict` they fail the build instead. One place, so that no
 * warning can slip past `strict`.
 */
export function makeWarn(logger: LoaderContext['logger'], strict: boolean, cause?: (message: string) => unknown) {
  return (message: string, error?: unknown): void => {
    if (strict) {
      const failure = new StrictModeError(
        `${PREFIX} ${message} (strict: true turns this warning into a failure; set strict: false to build with the stored content).`,
        { cause: error ?? cause?.(message) },
      );
      throw failure;
    }
    logger.warn(message);
  };
}

/** A short, key-free description of an error for a log line (client errors are already redacted). */
export function describeError(error: unknown): string {
  // Quoted inside a sentence that is labelled already: the package's name once is enough.
  return withoutPrefix(error instanceof Error ? error.message : String(error));
}
