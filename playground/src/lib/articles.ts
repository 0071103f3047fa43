// Helpers shared by the pages: the order of articles, languages, and dates.
import { getCollection, type CollectionEntry } from 'astro:content';

export type Article = CollectionEntry<'articles'>;

/** Items per page on the home page. */
export const PAGE_SIZE = 10;

const LANGUAGE_NAMES: Record<string, string> = {
  en: 'English',
  fr: 'Français',
  de: 'Deutsch',
  es: 'Español',
  it: 'Italiano',
  pt: 'Português',
  nl: 'Nederlands',
};

export function languageName(code: string): string {
  return LANGUAGE_NAMES[code] ?? code.toUpperCase();
}

/** Every article, newest first (ties broken by slug so the order is stable between builds). */
export async function allArticles(): Promise<Article[]> {
  const entries = await getCollection('articles');
  return entries.sort((a, b) => publishedTime(b) - publishedTime(a) || a.id.localeCompare(b.id));
}

export function publishedTime(entry: Article): number {
  const value: unknown = entry.data.publishedAt;
  return value instanceof Date ? value.getTime() : Date.parse(String(value ?? '')) || 0;
}

const dateFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' });

export function formatDate(entry: Article): string {
  const time = publishedTime(entry);
  return time ? dateFormat.format(new Date(time)) : '';
}

export function isoDate(entry: Article): string {
  const time = publishedTime(entry);
  return time ? new Date(time).toISOString().slice(0, 10) : '';
}

/** The summary shown under a title: the excerpt, else the meta description. Plain text (escaped by Astro). */
export function summary(entry: Article): string {
  const data = entry.data as Record<string, unknown>;
  const text = data.excerpt ?? data.meta_description ?? data.metaDescription ?? '';
  return typeof text === 'string' ? text : '';
}

export function articleHref(entry: Article): string {
  return `/blog/${encodeURIComponent(entry.id)}/`;
}

export async function languages(): Promise<string[]> {
  const all = await allArticles();
  return [...new Set(all.map((entry) => String(entry.data.language ?? '')).filter(Boolean))].sort();
}
