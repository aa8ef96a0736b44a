/** Polls a condition until it holds; tests wait for events, never for fixed delays. */
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * `everyMs`: the pause between looks. Keep the default for cheap conditions; a condition that
 * costs the service work (a crawl's status carries up to 100 results) looks less often, or
 * the looking slows down what it waits for.
 */
export async function until(
  condition: () => boolean | Promise<boolean>,
  ms = 5_000,
  everyMs = 10,
): Promise<void> {
  const end = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error(`condition not met within ${ms} ms`);
    await sleep(everyMs);
  }
}
