/** Adds tags to Astro's route cache options of this request, where a cache provider is on (Astro 7). */
export function tagRouteCache(
  context: { cache?: { enabled: boolean; set(options: { tags: string[] }): void } | undefined },
  tags: string[],
): void {
  // Not `set` without a provider: Astro would warn that caching is not enabled.
  if (context.cache?.enabled) context.cache.set({ tags });
}
