// The blog's URLs of an article, for components/ArticleHead.astro: its canonical URL and its other languages'
// pages, by the integration's `articlePattern` and the languages the blog's loaders hold for its slug, as the
// sitemap lists them. Imports the integration's virtual config: only for code Vite bundles with the integration.
import rawConfig from 'virtual:astro-content-publisher/config';
import { blogArticleUrl } from '../html/article-links.js';
import type { RouteConfig } from '../integration/settings/route-config.js';

const config = rawConfig as Partial<RouteConfig> | undefined;

/**
 * The canonical URL of the article `slug` in `language` and its pages in the other languages the blog has;
 * undefined without the integration's config (or a `site`).
 */
export function blogArticleUrls(
  slug: string,
  language: string | undefined,
): { canonical: string | undefined; alternates: Array<{ hreflang: string; href: string }> } | undefined {
  if (!config?.blogSite || config.articlePattern === undefined || config.trailingSlash === undefined) return undefined;
  const layout = {
    blogSite: config.blogSite,
    articlePattern: config.articlePattern,
    trailingSlash: config.trailingSlash,
  };
  const canonical = blogArticleUrl(slug, layout, language);
  const alternates = (config.articles?.languages?.[slug] ?? [])
    .filter((other) => other !== '')
    .flatMap((other) => {
      const href = blogArticleUrl(slug, layout, other);
      return href === undefined ? [] : [{ hreflang: other, href }];
    });
  return { canonical, alternates };
}
