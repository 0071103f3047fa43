// Which admin requests the simulator refuses although they came over loopback: those a web page open in the
// developer's browser could send.
import type { SimRequest } from './http.js';

const LOOPBACK_HOSTNAMES = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

function loopbackHostname(hostAndPort: string): boolean {
  try {
    return LOOPBACK_HOSTNAMES.has(new URL(`http://${hostAndPort}`).hostname);
  } catch {
    return false;
  }
}

/**
 * Why an admin request that reached the simulator over loopback must still be refused, or undefined. A page
 * open in the developer's browser can send requests to 127.0.0.1: a `text/plain` POST needs no preflight, and
 * a DNS-rebound name reaches the port with a foreign Host. So: the Host must name this machine, an Origin
 * (browsers send one on every POST) must be this machine's, and a body must be declared `application/json`
 * (which a cross-site page cannot send without a preflight the simulator never grants). Tests, the CLI and
 * curl send no Origin and pass.
 */
export function adminRequestRefusal(req: Pick<SimRequest, 'method' | 'headers' | 'body'>): string | undefined {
  const host = req.headers.host ?? '';
  if (!loopbackHostname(host))
    return `the Host header must name this machine (127.0.0.1, localhost or [::1]), got ${JSON.stringify(host.slice(0, 100))}`;
  const origin = req.headers.origin;
  if (origin !== undefined) {
    let originHost = '';
    try {
      const url = new URL(origin);
      originHost = url.protocol === 'http:' ? url.host : '';
    } catch {
      // "null" or garbage: not this machine
    }
    if (!loopbackHostname(originHost))
      return `requests from web pages are refused (Origin ${JSON.stringify(origin.slice(0, 100))})`;
  }
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (req.body.trim() !== '' && type !== 'application/json')
    return `a request body must be sent as Content-Type: application/json, got ${JSON.stringify(type || 'none')}`;
  return undefined;
}
