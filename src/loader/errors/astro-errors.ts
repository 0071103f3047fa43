/**
 * The errors the build-time loaders hand to Astro, worded for the ways Astro shows them. `astro build` prints an
 * error's message, then its `hint` under "Hint:"; `astro dev` (its start, the content layer) often prints the
 * message alone. The package's errors end their message with the hint, so through a build the advice was printed
 * twice. And an error thrown while Astro evaluates `src/content.config.ts` (a loader's options) is shown with
 * Astro's own hint, "often caused by a syntax error inside your content", unless it says it is a user's error as
 * `astro/errors`' AstroError does (`type: 'AstroUserError'`): then Astro shows its hint.
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

/**
 * The error Astro is given: a copy (same class and fields) whose advice is in its message only, printed once by a
 * build and still by `astro dev`; the caller's error is left as it is. Others as they are.
 */
export function adviceOnce(error: unknown): unknown {
  if (!isHinted(error) || !error.message.trimEnd().endsWith(error.hint)) return error;
  const copy = Object.create(Object.getPrototypeOf(error) as object, Object.getOwnPropertyDescriptors(error)) as Hinted;
  Object.defineProperty(copy, 'hint', { value: '', enumerable: true, configurable: true });
  // Node keeps an error's stack behind an accessor of the original object: the copy's would read nothing.
  Object.defineProperty(copy, 'stack', { value: error.stack, writable: true, configurable: true });
  return copy;
}

/**
 * An error of the content config (a loader's options), marked as a user's error so that Astro shows its hint
 * (where every option is described) instead of its advice about a syntax error. Not enumerable: JSON and
 * `util.inspect` show the error as before.
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
      throw adviceOnce(error);
    });
}
