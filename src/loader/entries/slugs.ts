/**
 * Which upstream slugs can become entry ids. A slug names a file path in the built site and a request path
 * of the detail call; the list, the sitemap and the RSS feed are all checked with this one rule (the same
 * rule as the client's slug check), so that no path lets a hostile slug into the store.
 */
export function slugProblem(slug: string): string | undefined {
  if (slug.trim() === '') return 'is empty';
  if (slug.includes('/') || slug.includes('\\')) return 'contains "/"';
  if (slug.includes('..')) return 'contains ".."';
  if (slug.trim() === '.') return 'is "."';
  if (/[?#]/.test(slug) || [...slug].some((char) => char.charCodeAt(0) < 0x20))
    return 'contains control characters, "?" or "#"';
  return undefined;
}

export const isStorableSlug = (slug: string): boolean => slugProblem(slug) === undefined;
