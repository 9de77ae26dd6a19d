/** Waiting helpers shared by every test: a pause, and polling until a condition holds. */

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Polls `check` until it holds: it returns true, or returns nothing without throwing (an assertion
 * that passed). A false, a string (a detail to report) or a thrown error means not yet. Fails with
 * `what` and the last detail after `timeoutMs`.
 */
export async function eventually(
  what: string,
  timeoutMs: number,
  // biome-ignore lint/suspicious/noConfusingVoidType: an assertion callback returns void
  check: () => Promise<boolean | string | void>,
  everyMs = 100,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown = '';
  for (;;) {
    try {
      const r = await check();
      if (r === true || r === undefined) return;
      last = r;
    } catch (err) {
      last = (err as Error).message;
    }
    if (Date.now() > deadline)
      throw new Error(`${what}: not reached in ${timeoutMs} ms (${String(last).slice(0, 2000)})`);
    await sleep(everyMs);
  }
}
