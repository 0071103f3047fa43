/** Small helpers on plain records, shared by the entry mapping and the feed state. */

/** The record without its undefined values (exactOptionalPropertyTypes-friendly, and nothing stored as `null`). */
export function withoutUndefined<T extends Record<string, unknown>>(
  value: T,
): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as {
    [K in keyof T]: Exclude<T[K], undefined>;
  };
}

/** The record without the given keys. */
export function omit(record: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([k]) => !keys.includes(k)));
}
