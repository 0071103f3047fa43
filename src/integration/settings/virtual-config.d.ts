// The integration's Vite plugin provides this module (see virtual-module.ts); its value is a RouteConfig
// serialised as JSON, checked by readRouteConfig() before use.
declare module 'virtual:astro-content-publisher/config' {
  const config: unknown;
  export default config;
}
