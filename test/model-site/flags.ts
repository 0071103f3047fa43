/**
 * Temporary constraints of the site model test, one per defect that another change is fixing (issue 18,
 * item 1). Each names the defect, the check it constrains and how; none skips a check. The coordinator turns
 * a flag off (and deletes it) when the fix is merged. `MODEL_SITE_STRICT=1` turns every flag off, to see
 * which defects main still has; `MODEL_SITE_STRICT=ogImageOfRestoredPage` turns off those named.
 */
const named = new Set((process.env.MODEL_SITE_STRICT ?? '').split(',').map((name) => name.trim()));
const on = (name: string) => !named.has('1') && !named.has(name);

export const KNOWN = {
  /**
   * The original of a featured image (`cover.src`, `/_astro/<name>.<hash>.jpg`, as themes put it in
   * `og:image`) is deleted from the output when its page is kept by an incremental build ("(restored)") and
   * another page is rendered in the same build: Astro's image step removes originals it thinks unreferenced,
   * though the kept page's record names it (found by the "finish" helper: seed 777005, sequence 3; reproduced
   * by three builds: publish en:a1, en:a2, fr:a1; build; build; edit en:a1's body; build: en/blog/a2's
   * og:image answers 404). No helper assigned yet. While true, such a 404 is accepted for a page the build's
   * log lists as restored.
   */
  ogImageOfRestoredPage: on('ogImageOfRestoredPage'),
};
