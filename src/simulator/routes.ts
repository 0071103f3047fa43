import { ADMIN_ROUTES } from './admin.js';
import { handleArticleDetail, handleArticleList, handleMe, handleSites } from './api-articles.js';
import { handleGenerate } from './api-generate.js';
import { handleAudit, handleBrief, handleDigest, handleKeywords, handleSnapshot } from './api-insights.js';
import type { HandlerContext } from './context.js';
import { handleRss, handleSitemap } from './feeds.js';
import { compileRoutes, type RouteDefinition } from './router.js';

/** Every route of the simulated service. Their `${method} ${pattern}` keys are the stats and fault keys. */
const API_ROUTES: Array<RouteDefinition<HandlerContext>> = [
  { method: 'GET', pattern: '/api/v1/me/', kind: 'authenticated', handler: handleMe },
  { method: 'GET', pattern: '/api/v1/sites/', kind: 'authenticated', handler: handleSites },
  { method: 'GET', pattern: '/api/v1/sites/:id/articles/', kind: 'authenticated', handler: handleArticleList },
  { method: 'GET', pattern: '/api/v1/sites/:id/articles/:slug/', kind: 'authenticated', handler: handleArticleDetail },
  { method: 'POST', pattern: '/api/v1/sites/:id/generate/', kind: 'authenticated', handler: handleGenerate },
  { method: 'POST', pattern: '/api/v1/audit/', kind: 'authenticated', handler: handleAudit },
  { method: 'POST', pattern: '/api/v1/brief/', kind: 'authenticated', handler: handleBrief },
  { method: 'GET', pattern: '/api/v1/sites/:id/keywords/', kind: 'authenticated', handler: handleKeywords },
  { method: 'POST', pattern: '/api/v1/sites/:id/keywords/snapshot/', kind: 'authenticated', handler: handleSnapshot },
  { method: 'GET', pattern: '/api/v1/sites/:id/digest/weekly/', kind: 'authenticated', handler: handleDigest },
  { method: 'GET', pattern: '/api/sites/:id/sitemap.xml', kind: 'public', handler: handleSitemap },
  { method: 'GET', pattern: '/api/sites/:id/rss.xml', kind: 'public', handler: handleRss },
];

export const ROUTES = compileRoutes<HandlerContext>([...API_ROUTES, ...ADMIN_ROUTES]);

/** Route keys that faults and stats use, e.g. "GET /api/v1/sites/:id/articles/". */
export const ROUTE_KEYS: readonly string[] = API_ROUTES.map((route) => `${route.method} ${route.pattern}`);
