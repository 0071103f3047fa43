/** A replacement of the source range [start, end) by `text`. */
export interface Edit {
  start: number;
  end: number;
  text: string;
}

/** Applies non-overlapping edits to xml[from, to), returning the new text of that range. */
export function splice(xml: string, from: number, to: number, edits: Edit[]): string {
  if (edits.length === 0) return xml.slice(from, to);
  edits.sort((a, b) => a.start - b.start);
  let out = '';
  let at = from;
  for (const edit of edits) {
    out += xml.slice(at, edit.start) + edit.text;
    at = edit.end;
  }
  return out + xml.slice(at, to);
}

/**
 * Edits escaping the stray `&`s (see scanReferences; `offsets` ascending) that lie in [from, to)
 * and outside every edit of `edits` (a replaced value is re-escaped from its decoded text already).
 */
export function strayAmpersandEdits(
  offsets: readonly number[],
  from: number,
  to: number,
  edits: readonly Edit[],
): Edit[] {
  if (offsets.length === 0) return [];
  // Binary search for the first offset >= from: a 50,000-URL sitemap calls this once per <url>.
  let lo = 0;
  let hi = offsets.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((offsets[mid] ?? 0) < from) lo = mid + 1;
    else hi = mid;
  }
  const out: Edit[] = [];
  for (let k = lo; k < offsets.length; k++) {
    const at = offsets[k] ?? to;
    if (at >= to) break;
    if (!edits.some((e) => at >= e.start && at < e.end)) out.push({ start: at, end: at + 1, text: '&amp;' });
  }
  return out;
}
