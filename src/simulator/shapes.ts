import { siteOrigin, type SiteDefinition } from './accounts.js';
import type { ArticleRecord } from './articles.js';

/** The JSON shapes of the API, built from stored records in one place. */

/** The public URL; with the `sharedSlugs` variant it carries the language (`/fr/blog/slug/`), as the slug alone is not unique. */
export function articleUrl(site: SiteDefinition, slug: string, language?: string): string {
  return `${siteOrigin(site)}${language ? `/${encodeURIComponent(language)}` : ''}/blog/${encodeURIComponent(slug)}/`;
}

export function listItem(article: ArticleRecord) {
  return {
    slug: article.slug,
    title: article.title,
    status: article.status,
    language: article.language,
    published_at: article.publishedAt,
    view_count: article.viewCount,
  };
}

export function articleDetail(article: ArticleRecord, site: SiteDefinition, languageInUrl = false) {
  return {
    ...listItem(article),
    content: article.content,
    excerpt: article.excerpt,
    url: articleUrl(site, article.slug, languageInUrl ? article.language : undefined),
    updated_at: article.updatedAt,
    meta_description: article.metaDescription,
    featured_image: article.featuredImage,
    keywords: [...article.keywords],
  };
}

export function siteItem(site: SiteDefinition) {
  return { id: site.id, name: site.name, domain: site.domain, is_cms: site.isCms };
}
