// The human log of `watch` during a long outage: the first failure in full, nothing for the same failure on
// the next polls, a reminder once an hour with how long it has lasted, and the new CLI terms in every line.
import { describe, expect, it } from 'vitest';
import { createWatchLog, STILL_FAILING_EVERY_MS } from '../../src/cli/commands/watch-lines.js';

const START = Date.UTC(2026, 10, 26, 20, 0, 0);
const failure = (failedPolls: number) =>
  ({
    event: 'upstream-error',
    message: '[GET] /api/sites/12/rss.xml: the service failed (502). Retry later.',
    code: 'cms_unavailable',
    hint: 'Retry later.',
    retryInMs: 60_000,
    failedPolls,
  }) as const;

describe('watch log during an outage', () => {
  it('prints the first failure, then one reminder per hour while the same failure lasts, then the recovery', () => {
    let clock = START;
    const log = createWatchLog(() => clock);
    const lines: string[] = [];
    // One poll a minute for three hours and a half.
    for (let poll = 1; poll <= 210; poll += 1) {
      const line = log.line(failure(poll));
      if (line !== undefined) lines.push(line);
      clock += 60_000;
    }
    lines.push(log.line({ event: 'upstream-recovered', failedPolls: 210, since: new Date(START).toISOString() })!);
    expect(lines).toEqual([
      'upstream error: [GET] /api/sites/12/rss.xml: the service failed (502); retrying in 1m',
      'upstream still failing after 61 polls (since 20:00:00): [GET] /api/sites/12/rss.xml: the service failed (502); retrying in 1m',
      'upstream still failing after 121 polls (since 20:00:00): [GET] /api/sites/12/rss.xml: the service failed (502); retrying in 1m',
      'upstream still failing after 181 polls (since 20:00:00): [GET] /api/sites/12/rss.xml: the service failed (502); retrying in 1m',
      'upstream answers again after 210 failed polls (failing since 20:00:00)',
    ]);
    expect(STILL_FAILING_EVERY_MS).toBe(3_600_000);
    expect(log.inOutage()).toBe(false);
  });

  it('a new outage starts its own hour: no reminder carried over from the last one', () => {
    let clock = START;
    const log = createWatchLog(() => clock);
    expect(log.line(failure(1))).toMatch(/^upstream error: /);
    clock += 50 * 60_000;
    log.line({ event: 'upstream-recovered', failedPolls: 1, since: new Date(START).toISOString() });
    clock += 20 * 60_000;
    expect(log.line(failure(1))).toMatch(/^upstream error: /);
    clock += 30 * 60_000;
    expect(log.line(failure(2))).toBeUndefined();
  });

  it('names --base-url, not the client option, in a line that asks to check the address', () => {
    const log = createWatchLog(() => START);
    const line = log.line({
      event: 'upstream-error',
      message: '[GET] /api/sites/12/rss.xml: got an HTML page. Check that `baseUrl` points at the service itself.',
      code: 'bad_response',
      hint: 'Check that `baseUrl` points at the service itself.',
      retryInMs: 8_000,
      failedPolls: 1,
    });
    expect(line).toBe(
      'upstream error: [GET] /api/sites/12/rss.xml: got an HTML page; retrying in 8s. Check that --base-url (or PUBLISHER_BASE_URL) points at the service itself.',
    );
  });
});
