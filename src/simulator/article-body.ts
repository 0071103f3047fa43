import { bankFor } from './corpus.js';
import { escapeHtml } from './html.js';
import { MEDIA_HEIGHT, MEDIA_WIDTH, mediaUrl } from './media.js';
import type { Rng } from './random.js';

export type ArticleLength = 'short' | 'medium' | 'long';

export interface RelatedArticle {
  slug: string;
  title: string;
  /** Set where the service's URLs carry the language (the `sharedSlugs` variant). */
  language?: string;
}

/** An article as another one links to it: its language only where the service's URLs carry it (`sharedSlugs`). */
export function relatedArticle(
  article: { slug: string; title: string; language: string },
  sharedSlugs: boolean,
): RelatedArticle {
  return { slug: article.slug, title: article.title, ...(sharedSlugs ? { language: article.language } : {}) };
}

export interface BodyInput {
  title: string;
  topic: string;
  language: string;
  slug: string;
  siteId: number;
  /** Origin of the site's public blog, e.g. https://pro-blog.example.com */
  siteOrigin: string;
  /**
   * Other articles of the same site to link to (the first is linked absolutely, the second relatively), at their
   * public URL: with a `language` where slugs are shared across languages (`/fr/blog/<slug>/`).
   */
  related: RelatedArticle[];
  length?: ArticleLength;
}

const SECTIONS: Record<ArticleLength, number> = { short: 2, medium: 3, long: 5 };

/** A figure as a CMS writes it: served for real by the simulator's /media/ (see media.ts). */
function figure(input: BodyInput, name: string, caption: string): string {
  return (
    `<figure><img src="${mediaUrl(input.siteId, input.slug, name)}" alt="${escapeHtml(caption)}" width="${MEDIA_WIDTH}" height="${MEDIA_HEIGHT}" loading="lazy">` +
    `<figcaption>${escapeHtml(caption)}</figcaption></figure>`
  );
}

function paragraph(rng: Rng, sentences: readonly string[], count: number): string {
  const picked = rng.sample(sentences, count);
  // Some inline markup, as a WYSIWYG editor would produce.
  if (picked.length > 1 && rng.next() < 0.5) picked[0] = `<strong>${escapeHtml(picked[0] ?? '')}</strong>`;
  else if (picked[0] !== undefined) picked[0] = escapeHtml(picked[0]);
  return `<p>${picked.map((s, i) => (i === 0 ? s : escapeHtml(s))).join(' ')}</p>`;
}

/**
 * A realistic article body: the kinds of markup a CMS or an AI writer emits, so that the sanitiser,
 * heading ids, link rewriting and image handling downstream have something real to work on.
 * Deterministic for a given rng state.
 */
export function generateArticleBody(input: BodyInput, rng: Rng): string {
  const bank = bankFor(input.language);
  const sections = SECTIONS[input.length ?? 'medium'];
  const headings = rng.sample(bank.headings, sections);
  const parts: string[] = [];
  parts.push(paragraph(rng, bank.sentences, 3));

  headings.forEach((heading, index) => {
    parts.push(`<h2>${escapeHtml(heading)}</h2>`);
    parts.push(paragraph(rng, bank.sentences, rng.int(2, 4)));
    if (index === 0) {
      parts.push(`<h3>${escapeHtml(rng.pick(bank.subheadings))}</h3>`);
      parts.push(
        `<ul>${rng
          .sample(bank.listItems, 4)
          .map((item) => `<li>${escapeHtml(item)}</li>`)
          .join('')}</ul>`,
      );
      parts.push(figure(input, 'figure-1.jpg', `${bank.figureCaption} ${input.topic}`));
    } else if (index === 1) {
      parts.push(
        `<ol>${rng
          .sample(bank.listItems, 3)
          .map((item) => `<li>${escapeHtml(item)}</li>`)
          .join('')}</ol>`,
      );
      const rows = ['A', 'B', 'C'].map(
        (label) => `<tr><td>${label}</td><td>${rng.int(10, 250)} €</td><td>${'★'.repeat(rng.int(1, 5))}</td></tr>`,
      );
      parts.push(
        `<table><thead><tr>${bank.tableHead.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr></thead>` +
          `<tbody>${rows.join('')}</tbody></table>`,
      );
      parts.push(figure(input, 'figure-2.png', `${bank.figureCaption} ${input.topic} (2)`));
    } else if (index === 2) {
      parts.push(`<h3>${escapeHtml(rng.pick(bank.subheadings))}</h3>`);
      parts.push(
        '<pre><code class="language-bash"># export your notes as a CSV file\n' +
          `echo "date,minutes,notes" &gt; ${escapeHtml(input.slug)}.csv\n` +
          `awk -F, 'NR &gt; 1 { total += $2 } END { print total }' ${escapeHtml(input.slug)}.csv</code></pre>`,
      );
    } else {
      parts.push(`<blockquote><p>${escapeHtml(rng.pick(bank.sentences))}</p></blockquote>`);
    }
  });

  if (input.related.length > 0) {
    const links = input.related.slice(0, 2).map((other, i) => {
      // One absolute link to the site's own domain and one relative link, as real CMS content mixes both.
      const path = `${other.language ? `/${other.language}` : ''}/blog/${other.slug}/`;
      const href = i === 0 ? `${input.siteOrigin}${path}` : path;
      return `<a href="${escapeHtml(href)}">${escapeHtml(other.title)}</a>`;
    });
    parts.push(`<p>${escapeHtml(bank.seeAlso)} ${links.join(' · ')}</p>`);
  }

  const videoId = Array.from({ length: 11 }, () =>
    rng.pick([...'abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789']),
  ).join('');
  parts.push(
    `<iframe width="560" height="315" src="https://www.youtube.com/embed/${videoId}" title="${escapeHtml(input.title)}" ` +
      'frameborder="0" allow="accelerometer; autoplay; clipboard-write; encrypted-media; picture-in-picture" allowfullscreen></iframe>',
  );
  parts.push(figure(input, 'figure-3.webp', `${bank.figureCaption} ${input.topic} (3)`));
  parts.push(`<h2>${escapeHtml(bank.conclusion)}</h2>`);
  parts.push(paragraph(rng, bank.sentences, 2));
  return parts.join('\n');
}
