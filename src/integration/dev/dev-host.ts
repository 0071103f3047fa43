import { isIP } from 'node:net';

/**
 * The Host check of the dev refresh, with the rules of Vite's `server.allowedHosts`: a page on another site
 * that rebinds its DNS name to 127.0.0.1 reaches the dev server with its own name in the Host header, and the
 * same Origin as that Host, so the Origin check alone lets it through. Vite checks Host for its own routes,
 * but an integration's middleware runs before Vite's, so the refresh checks it itself.
 */

/** What `server.allowedHosts` resolved to, plus the names the dev server was configured with. */
export type AllowedHosts = true | readonly string[];

/** The hosts a Vite dev server accepts besides localhost and IP addresses (its config, as Vite reads it). */
export function allowedHostsOf(config: unknown): AllowedHosts {
  const server = (config as { server?: Record<string, unknown> } | undefined)?.server;
  if (!server) return [];
  if (server.allowedHosts === true) return true;
  const list = Array.isArray(server.allowedHosts)
    ? server.allowedHosts.filter((h): h is string => typeof h === 'string')
    : [];
  if (typeof server.host === 'string' && server.host !== '') list.push(server.host);
  if (typeof server.origin === 'string') {
    try {
      list.push(new URL(server.origin).hostname);
    } catch {
      // not a URL: Vite ignores it too
    }
  }
  return list;
}

/** The host name of a Host header (without the port), or undefined when it is not one. */
function hostName(header: string): { ip: boolean; name: string } | undefined {
  const host = header.trim().toLowerCase();
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    return end > 0 && isIP(host.slice(1, end)) === 6 ? { ip: true, name: host.slice(1, end) } : undefined;
  }
  const name = host.replace(/:\d*$/, '');
  if (name === '' || name.includes(':')) return undefined;
  return { ip: isIP(name) === 4, name };
}

/**
 * Why the Host header names a host this dev server does not serve, or undefined. Accepted as Vite accepts
 * them: no Host (not a browser), an IP address, `localhost` and `*.localhost`, a name of `allowedHosts`
 * (`.example.com` allows the domain and its subdomains), or any host with `allowedHosts: true`.
 */
export function hostRefusal(header: string | undefined, allowed: AllowedHosts): string | undefined {
  if (header === undefined || allowed === true) return undefined;
  const host = hostName(header);
  const refusal = `the request names another host (Host: ${JSON.stringify(header)}); add it to Vite's server.allowedHosts if this dev server is reached under that name`;
  if (!host) return refusal;
  if (host.ip || host.name === 'localhost' || host.name.endsWith('.localhost')) return undefined;
  for (const entry of allowed) {
    const pattern = entry.toLowerCase();
    if (pattern === host.name) return undefined;
    if (pattern.startsWith('.') && (host.name === pattern.slice(1) || host.name.endsWith(pattern))) return undefined;
  }
  return refusal;
}
