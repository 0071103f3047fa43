import type { SiteDefinition } from './accounts.js';
import type { HandlerContext } from './context.js';
import { errorResponse, isResponse, type SimResponse } from './http.js';

/** The caller's active site from the `:id` param, or the 404 the API gives for anything else. */
export function ownedSite(ctx: HandlerContext, rawId: string | undefined): SiteDefinition | SimResponse {
  const id = /^\d{1,9}$/.test(rawId ?? '') ? Number(rawId) : NaN;
  const site = Number.isNaN(id) ? undefined : ctx.store.site(id);
  if (!site || !site.active || !ctx.user?.siteIds.includes(site.id)) {
    return errorResponse(
      404,
      `Site ${rawId ?? ''} not found (it does not exist, is inactive or does not belong to this account).`,
    );
  }
  return site;
}

/** A caller's site for an endpoint that talks to its remote CMS: 404 as ownedSite, 502 when the CMS cannot be reached. */
export function ownedCmsSite(ctx: HandlerContext, rawId: string | undefined): SiteDefinition | SimResponse {
  const site = ownedSite(ctx, rawId);
  if (isResponse(site) || !site.cmsUnreachable) return site;
  return errorResponse(
    502,
    `The CMS of site ${site.id} (${site.domain}) is unreachable. Retry later and check the site's CMS credentials.`,
  );
}
