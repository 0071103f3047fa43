/** Small checks shared by the real-theme tests. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DomUtils, parseDocument } from 'htmlparser2';
import type { Simulator } from 'astro-content-publisher/simulator';

export interface ServiceArticle {
  slug: string;
  title: string;
  language: string;
}

/** The site's published articles, as the service lists them (one authenticated request). */
export async function serviceArticles(simulator: Simulator, siteId: number): Promise<ServiceArticle[]> {
  const response = await fetch(`${simulator.url}/api/v1/sites/${siteId}/articles/`, {
    headers: { authorization: `Bearer ${simulator.tokens.agence}` },
  });
  const body = (await response.json()) as { results: ServiceArticle[] };
  return body.results.map(({ slug, title, language }) => ({ slug, title, language }));
}

/** The language of the article the service's detail call answers for a slug (it has no language parameter). */
export async function detailLanguage(simulator: Simulator, siteId: number, slug: string): Promise<string> {
  const response = await fetch(`${simulator.url}/api/v1/sites/${siteId}/articles/${slug}/`, {
    headers: { authorization: `Bearer ${simulator.tokens.agence}` },
  });
  return ((await response.json()) as { language: string }).language;
}

/**
 * Edits one article on the service (its title and body, through the simulator's admin API; `language` picks
 * one of a slug's languages) and returns the new title and a marker the new body holds.
 */
export async function editOnService(
  simulator: Simulator,
  siteId: number,
  article: ServiceArticle,
  language?: string,
): Promise<{ title: string; marker: string }> {
  const title = `${article.title} (edited)`;
  const marker = `Edited body ${Date.now()}`;
  const query = language ? `?language=${language}` : '';
  const response = await fetch(`${simulator.url}/__simulator/articles/${siteId}/${article.slug}${query}`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ title, content: `<h2>Changed</h2><p>${marker}</p>` }),
  });
  if (response.status !== 200) throw new Error(`the edit of ${article.slug} answered ${response.status}`);
  return { title, marker };
}

/** The origin of the site's public URLs on the service (its articles' `https://<site domain>/...`). */
export async function serviceSiteOrigin(simulator: Simulator, siteId: number): Promise<string> {
  const rss = await (await fetch(`${simulator.url}/api/sites/${siteId}/rss.xml`)).text();
  const link = /<link>([^<]+)<\/link>/.exec(rss)?.[1];
  if (link === undefined) throw new Error(`the service's feed of site ${siteId} has no <link>`);
  return new URL(link).origin;
}

/** The text of a built page (`<path>/index.html` under the theme's dist/), entities decoded. */
export function pageText(dir: string, path: string): string {
  const html = readFileSync(join(dir, 'dist', path, 'index.html'), 'utf8');
  return DomUtils.textContent(parseDocument(html)).replace(/\s+/g, ' ');
}

/** The texts of a built page's elements of one tag (e.g. its `h1`s), entities decoded. */
export function headings(dir: string, path: string, tag: string): string[] {
  const document = parseDocument(readFileSync(join(dir, 'dist', path, 'index.html'), 'utf8'));
  return DomUtils.getElementsByTagName(tag, document).map((element) =>
    DomUtils.textContent(element).replace(/\s+/g, ' ').trim(),
  );
}

/** The fields of an article's detail the head checks and a rename read. */
export interface ServiceDetail {
  slug: string;
  title: string;
  language: string;
  content: string;
  published_at: string;
  updated_at: string;
  meta_description: string | null;
  featured_image: string | null;
}

/** The detail the service answers for a slug (one authenticated request). */
export async function serviceDetail(simulator: Simulator, siteId: number, slug: string): Promise<ServiceDetail> {
  const response = await fetch(`${simulator.url}/api/v1/sites/${siteId}/articles/${slug}/`, {
    headers: { authorization: `Bearer ${simulator.tokens.agence}` },
  });
  if (response.status !== 200) throw new Error(`the detail of ${slug} answered ${response.status}`);
  return (await response.json()) as ServiceDetail;
}

async function admin(simulator: Simulator, method: string, path: string, body?: object): Promise<void> {
  const response = await fetch(`${simulator.url}/__simulator/${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  if (response.status >= 300) throw new Error(`${method} /__simulator/${path} answered ${response.status}`);
}

/** The service renames an article (the same title, day and body under `slug`), as the loader recognises a move. */
export async function renameOnService(simulator: Simulator, siteId: number, from: string, slug: string): Promise<void> {
  const detail = await serviceDetail(simulator, siteId, from);
  await unpublishOnService(simulator, siteId, from);
  await admin(simulator, 'POST', 'articles', {
    site: siteId,
    slug,
    title: detail.title,
    language: detail.language,
    content: detail.content,
    published_at: detail.published_at.slice(0, 10),
    featured_image: detail.featured_image,
  });
}

/** The service unpublishes an article (in the language its detail answers). */
export async function unpublishOnService(simulator: Simulator, siteId: number, slug: string): Promise<void> {
  const { language } = await serviceDetail(simulator, siteId, slug);
  await admin(simulator, 'DELETE', `articles/${siteId}/${slug}?language=${language}`);
}
