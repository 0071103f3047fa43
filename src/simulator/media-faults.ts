import { replacementResponse, replacesResponse, transformResponse, type FaultSpec } from './faults.js';
import type { MediaResponse } from './media.js';

/**
 * A fault applied to an image response, as faults.ts applies one to the API's: a status, JSON or literal
 * body answers in its place; 'truncated' sends the first half of the image's bytes; 'huge' pads them;
 * `headers` are added. `drift` has no JSON to change here. `delayMs` and `drop` are the sender's (server.ts).
 */
export function faultedMediaResponse(image: () => MediaResponse, fault: FaultSpec): MediaResponse {
  if (replacesResponse(fault)) {
    const replaced = transformResponse(replacementResponse(fault), fault, false);
    return { ...replaced, body: Buffer.from(replaced.body, 'utf8') };
  }
  const real = image();
  let body = real.body;
  if (fault.body === 'truncated') body = body.subarray(0, Math.floor(body.length / 2));
  if (fault.body === 'huge') body = Buffer.concat([body, Buffer.alloc(fault.hugeBytes ?? 64 * 1024 * 1024, 0x78)]);
  const headers = { ...real.headers };
  for (const [name, value] of Object.entries(fault.headers ?? {})) headers[name.toLowerCase()] = value;
  return { status: fault.status ?? real.status, headers, body };
}
