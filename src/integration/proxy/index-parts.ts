/**
 * The parts of an upstream sitemap index, fetched for the on-demand route and for builds under bounds a
 * small server survives: a few at once (not one after another: a visitor of a cold route waits for the
 * slowest wave, not for the sum of every part), all of them within one deadline, all of them within one
 * byte budget (so at most that many bytes of parts are ever held). Then each is handed to `use` in the
 * index's order and dropped right after it, with the event loop given back between two parts, so the
 * server answers other requests during a refresh. The deadline covers the network only, never our own
 * rewriting.
 */

/** What one part's request is given: the deadline every part shares, and the bytes left in the budget. */
export interface PartLimits {
  signal: AbortSignal;
  maxBytes: number;
}

export interface IndexPartsBounds {
  /** Requests at once. */
  concurrency: number;
  /** One deadline, in milliseconds, for every part together. */
  deadlineMs: number;
  /** The parts' bytes together (and so at most this for one part). */
  maxTotalBytes: number;
}

/** Why the parts could not all be had; the caller turns it into its own error. */
export class IndexPartsError extends Error {}

async function fetchAll(
  urls: readonly string[],
  fetchPart: (url: string, limits: PartLimits) => Promise<string>,
  bounds: IndexPartsBounds,
): Promise<Array<string | undefined>> {
  const stop = new AbortController();
  const deadline = AbortSignal.timeout(bounds.deadlineMs);
  const signal = AbortSignal.any([stop.signal, deadline]);
  const bodies: Array<string | undefined> = new Array<string | undefined>(urls.length);
  let received = 0;
  let next = 0;
  let failure: unknown;
  const worker = async (): Promise<void> => {
    while (failure === undefined && next < urls.length) {
      const i = next++;
      const left = Math.max(1, bounds.maxTotalBytes - received);
      try {
        const body = await fetchPart(urls[i]!, { signal, maxBytes: left });
        received += Buffer.byteLength(body);
        if (received > bounds.maxTotalBytes)
          throw new IndexPartsError(`its parts are over ${bounds.maxTotalBytes} bytes together`);
        bodies[i] = body;
      } catch (error) {
        // The first failure stops the others. A deadline names itself rather than one part's timeout, and a
        // part refused at what was left of the budget (an UpstreamFeedError 'too-large') names the budget.
        const overBudget =
          left < bounds.maxTotalBytes && (error as { reason?: unknown } | undefined)?.reason === 'too-large';
        failure ??= deadline.aborted
          ? new IndexPartsError(
              `its parts did not all arrive within ${bounds.deadlineMs} ms (\`timeoutMs\`, one deadline for every part): if the service is this slow, raise publisher({ timeoutMs })`,
            )
          : overBudget
            ? new IndexPartsError(`its parts are over ${bounds.maxTotalBytes} bytes together`)
            : error;
        stop.abort();
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(bounds.concurrency, urls.length) }, worker));
  if (failure !== undefined) throw failure;
  return bodies;
}

export async function forEachIndexPart(
  urls: readonly string[],
  fetchPart: (url: string, limits: PartLimits) => Promise<string>,
  bounds: IndexPartsBounds,
  use: (body: string, index: number) => void,
): Promise<void> {
  const bodies = await fetchAll(urls, fetchPart, bounds);
  for (let i = 0; i < bodies.length; i += 1) {
    const body = bodies[i]!;
    bodies[i] = undefined;
    use(body, i);
    // Give other requests of the server a turn between two parts' rewrites.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}
