/**
 * Temporary constraints of the site model test, one per defect that another change is fixing (issue 18,
 * item 1). Each names the defect, the check it constrains and how; none skips a check. The coordinator turns
 * a flag off (and deletes it) when the fix is merged. `MODEL_SITE_STRICT=1` turns every flag off, to see
 * which defects main still has; `MODEL_SITE_STRICT=linksKnownBySlug` turns off those named.
 */
const named = new Set((process.env.MODEL_SITE_STRICT ?? '').split(',').map((name) => name.trim()));
const on = (name: string) => !named.has('1') && !named.has(name);

export const KNOWN = {
  /**
   * In-article links are rewritten to the blog by slug, not by language: a link to the service's
   * `/en/blog/<slug>/` becomes the blog's `/en/blog/<slug>/` while the blog has `<slug>` only in `fr`, and
   * answers 404 ("lang" helper: what the blog has is per language). While true, such a 404 is accepted
   * when the blog serves the slug in the other language.
   */
  linksKnownBySlug: on('linksKnownBySlug'),
};
