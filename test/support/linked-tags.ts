/**
 * The cache tags an on-demand article page should carry for the articles it links to (liveArticlesLoader), read
 * from the page as a reader gets it: each article linked on the blog (https://blog.example.com/...) or at the
 * service (https://pro-blog.example.com/..., another language's), once, in the order of the links, itself left out.
 */
export function linkedArticleTags(html: string, self: string, siteId = 12): string[] {
  const link = /<a [^>]*href="https:\/\/(?:pro-)?blog\.example\.com\/(?:[a-z]{2}\/)?blog\/([^/"]+)\/"/g;
  const slugs = new Set([...html.matchAll(link)].map((match) => match[1]!).filter((slug) => slug !== self));
  return [...slugs].map((slug) => `publisher:site-${siteId}:${slug}`);
}
