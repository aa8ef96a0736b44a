/** Polls a condition until it holds; tests wait for events, never for fixed delays. */
import { setTimeout as sleep } from 'node:timers/promises';

export async function until(
  condition: () => boolean | Promise<boolean>,
  ms = 5_000,
): Promise<void> {
  const end = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error(`condition not met within ${ms} ms`);
    await sleep(10);
  }
}
