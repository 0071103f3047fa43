/**
 * The errors the build-time loaders hand to Astro, worded for the way Astro shows them. Astro prints an error's
 * message, then its `hint` under "Hint:". The package's errors end their message with the hint, for callers
 * that show only the message (the client, the CLI, a live loader's error on a page): through Astro the advice
 * was printed twice. And an error thrown while Astro evaluates `src/content.config.ts` (a loader's options)
 * is shown with Astro's own hint, "often caused by a syntax error inside your content", unless it says it is a
 * user's error as `astro/errors`' AstroError does (`type: 'AstroUserError'`): then Astro shows its hint.
 */
import type { LoaderContext } from 'astro/loaders';

interface Hinted {
  message: string;
  hint: string;
}

function isHinted(error: unknown): error is Error & Hinted {
  const hint = (error as Partial<Hinted> | undefined)?.hint;
  return error instanceof Error && typeof hint === 'string' && hint !== '';
}

/** The error, its message without the hint at its end (Astro prints the hint after it). Others as they are. */
export function hintShownOnce(error: unknown): unknown {
  if (!isHinted(error)) return error;
  const message = error.message.trimEnd();
  if (!message.endsWith(error.hint) || message.length === error.hint.length) return error;
  Object.defineProperty(error, 'message', {
    value: message.slice(0, -error.hint.length).trimEnd(),
    writable: true,
    configurable: true,
  });
  return error;
}

/**
 * An error of the content config (a loader's options), marked as a user's error so that Astro shows its hint
 * instead of its advice about a syntax error. Not enumerable: JSON and `util.inspect` show the error as before.
 */
export function asAstroUserError<E extends Error & Hinted>(error: E): E {
  Object.defineProperty(error, 'type', { value: 'AstroUserError', configurable: true });
  return error;
}

/** A loader's `load()`: what it throws reaches Astro with its advice once. */
export function loadForAstro(
  load: (context: LoaderContext) => Promise<void>,
): (context: LoaderContext) => Promise<void> {
  return (context) =>
    load(context).catch((error: unknown) => {
      throw hintShownOnce(error);
    });
}
