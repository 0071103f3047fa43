// The routes' settings (RouteConfig): made by the integration, served to the routes' bundle as JSON, checked when read.
export * as readRouteConfig from './read-route-config.js';
export * as routeConfig from './route-config.js';
