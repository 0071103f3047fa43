/**
 * The API key travels in the Authorization header of every authenticated call: over plain http to another
 * machine, anyone on the path reads it. Plain http is accepted only to this machine (the simulator, a local
 * proxy) unless the caller opts in explicitly with `allowInsecureHttp: true` (a trusted private network).
 */

/** True for hosts that never leave this machine: localhost (and *.localhost), 127.0.0.0/8, ::1. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  return host === 'localhost' || host.endsWith('.localhost') || /^127(?:\.\d{1,3}){3}$/.test(host) || host === '::1';
}

/** Why this base URL would send the key in cleartext (undefined: it would not, or the caller opted in). */
export function cleartextRefusal(baseUrl: string, allowInsecureHttp: boolean | undefined): string | undefined {
  if (allowInsecureHttp) return undefined;
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return undefined; // reported by the URL check itself
  }
  if (url.protocol !== 'http:' || isLoopbackHost(url.hostname)) return undefined;
  return `uses plain http to ${url.host}, which is not this machine: the API key would travel in cleartext`;
}
