/**
 * Declaration emit drops the JSDoc inside a zod shape, so every public options type is a documented
 * interface (what an editor shows on hover) proven equal to its schema's input type at compile time:
 * the schema stays the one definition of what is accepted, and an option added to a schema without being
 * added (and documented) here fails `npm run typecheck`.
 */

/** `true` when `Doc` names exactly the keys of `Input`, with mutually assignable types. */
export type Documents<Doc, Input> = [keyof Doc] extends [keyof Input]
  ? [keyof Input] extends [keyof Doc]
    ? [Doc] extends [Input]
      ? [Input] extends [Doc]
        ? true
        : false
      : false
    : false
  : false;

/** Compiles only when `T` is `true`. */
export type Proof<T extends true> = T;
