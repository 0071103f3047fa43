/**
 * Temporary constraints of the site model test, one per defect that another change is fixing (issue 18,
 * item 1). Each names the defect, the check it constrains and how; none skips a check. The coordinator turns
 * a flag off (and deletes it) when the fix is merged; `MODEL_SITE_STRICT=1` turns every flag off at once,
 * to see which defects main still has.
 */
const strict = process.env.MODEL_SITE_STRICT === '1';

export const KNOWN = {
  /**
   * `astro preview` of a static build stops with "`baseUrl` is missing" (the integration validates its
   * service settings although preview never calls the service; "dev" helper). While true, preview gets the
   * PUBLISHER_* variables of the build.
   */
  previewNeedsServiceEnv: !strict,
  /**
   * Links inside articles to the service's language-prefixed article URLs
   * (`https://pro-blog.example.com/<lang>/blog/<slug>/`) are not rewritten to the blog's page ("lang"
   * helper: `articlePattern` with `[lang]`). While true, such a link is accepted when it names, on the
   * service, exactly the article the model put there (still checked: no other article, no broken URL).
   */
  serviceLinksKept: !strict,
  /**
   * A language variant of a shared slug (the detail endpoint answers the slug's oldest article, in the other
   * language) is stored from the RSS feed, which has no featured image: its page never shows one, the
   * build says 0 pending and warns nothing (found by this test; no helper assigned yet). While true, such a
   * page may show no featured image; every other field of it is still checked.
   */
  variantWithoutFeatured: !strict,
};
