/** A heading of the sanitised article, as Astro's `render(entry).headings` expects it. */
export interface Heading {
  depth: number;
  slug: string;
  text: string;
}

// Existing ids are kept only when they are plain slugs: no DOM-clobbering-prone punctuation, short.
const SAFE_ID = /^[a-z][a-z0-9_-]{0,79}$/i;
const FALLBACK_SLUG = 'heading';

/**
 * Slug in the manner of github-slugger (what Astro uses for Markdown headings), so ids look the same
 * as on the blog's own Markdown pages: lowercase, punctuation removed, each space becomes "-".
 */
export function slugify(text: string): string {
  const lower = text.toLowerCase();
  // ASCII fast path: the Unicode property classes are several times slower.
  return (
    /^[\x20-\x7e]*$/.test(lower)
      ? lower.replace(/[^a-z0-9_ -]/g, '')
      : lower.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
  )
    .replace(/ /g, '-')
    .slice(0, 100);
}

interface PendingHeading {
  depth: number;
  existingId: string | undefined;
  text: string;
  /** Offset of the opening tag in sanitize-html's output, -1 until the heading closes. */
  position: number;
}

/**
 * Collects headings while sanitize-html streams the document: `open` runs in the opening-tag
 * transform (text unknown yet, so the id is a placeholder), `close` in the exclusive filter (the
 * frame then holds the decoded text), `finish` assigns ids in document order, so they do not
 * depend on how tags nest or close.
 */
export class HeadingCollector {
  private readonly pending: PendingHeading[] = [];

  open(depth: number, existingId: string | undefined): number {
    this.pending.push({ depth, existingId, text: '', position: -1 });
    return this.pending.length - 1;
  }

  /** `position`: where the heading's opening tag starts in the output (sanitize-html's tagPosition). */
  close(index: number, rawText: string, position = -1): void {
    const heading = this.pending[index];
    if (heading) {
      heading.text = rawText.replace(/\s+/g, ' ').trim();
      heading.position = position;
    }
  }

  /** Output offsets of the opening tags, in document order (-1 for a heading that never closed). */
  positions(): number[] {
    return this.pending.map((h) => h.position);
  }

  get size(): number {
    return this.pending.length;
  }

  finish(): Heading[] {
    const used = new Set<string>();
    const counts = new Map<string, number>();
    // Safe ids from the source are reserved first, so a generated slug never steals one.
    const kept = this.pending.map((h) => {
      const id = h.existingId?.trim();
      if (id && SAFE_ID.test(id) && !used.has(id)) {
        used.add(id);
        return id;
      }
      return undefined;
    });
    return this.pending.map((h, i) => {
      let slug = kept[i];
      if (slug === undefined) {
        const base = slugify(h.text) || FALLBACK_SLUG;
        let n = counts.get(base) ?? 0;
        slug = n === 0 ? base : `${base}-${n}`;
        while (used.has(slug)) slug = `${base}-${++n}`;
        counts.set(base, n + 1);
        used.add(slug);
      }
      return { depth: h.depth, slug, text: h.text };
    });
  }
}
