/**
 * On demand: a request for a renamed article's old URL answers 301 with its new URL (issue 38, item 1), from the
 * middleware, before the article route would answer 404. Only where the blog does not have the old slug (in the
 * URL's language); an unpublished article gets no redirect and answers 404 from its route.
 */
import { blogArticleRef, blogArticleUrl, hasArticle, unpublishedKey } from '../../html/article-links.js';
import type { RouteConfig } from '../settings/route-config.js';

/** The new URL of the renamed article a request's URL names (its query kept), else undefined. */
export function movedLocation(requestUrl: URL, config: RouteConfig): string | undefined {
  const moved = config.articles?.moved;
  if (moved === undefined || config.blogSite === '') return undefined;
  // The request's path on the blog's own origin: the server may be reached under another host (a proxy, loopback).
  const onBlog = new URL(requestUrl.pathname, new URL(config.blogSite).origin);
  const ref = blogArticleRef(onBlog, config);
  if (ref === undefined) return undefined;
  const to =
    (ref.language === undefined ? undefined : moved[unpublishedKey(ref.language, ref.slug)]) ??
    moved[unpublishedKey('', ref.slug)];
  if (to === undefined) return undefined;
  const known = { known: new Set(config.articles?.slugs), languages: config.articles?.languages };
  if (
    hasArticle(ref, known) ||
    !hasArticle(ref.language === undefined ? { slug: to } : { slug: to, language: ref.language }, known)
  )
    return undefined;
  const target = blogArticleUrl(to, config, ref.language);
  return target === undefined || target === onBlog.href ? undefined : target + requestUrl.search;
}
