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
