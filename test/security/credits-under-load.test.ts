/**
 * Issue 24's standing check on credits: 200 scrapes at once on an account holding 10 credits
 * charge exactly 10, on both doors' shared ledger: 10 answers of 200, 190 of 402, a balance of
 * 0 and a ledger of ten reservations settled at one credit each. The account's own concurrency limit and the
 * node's are above 200, so only the credits decide.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type FixtureSite, PLAIN_PAGE, startFixtureSite } from '../helpers/fixture-site.js';
import { startService, type TestService } from '../helpers/service.js';

let service: TestService;
let site: FixtureSite;

before(async () => {
  site = await startFixtureSite();
  site.html('/page', PLAIN_PAGE);
  service = await startService({ env: { NODE_CONCURRENCY: '400' } });
});
after(async () => {
  await service?.close();
  await site?.close();
});

describe('200 concurrent scrapes on 10 credits', () => {
  it('succeed exactly 10 times, charge exactly 10 and leave a balance of 0', async () => {
    const account = await service.addAccount(10, 400);
    const target = encodeURIComponent(site.url('/page'));
    const statuses = await Promise.all(
      Array.from({ length: 200 }, async () => {
        const response = await fetch(
          `${service.baseUrl}/api/scraper?api_key=${account.apiKey}&url=${target}`,
        );
        await response.arrayBuffer();
        return response.status;
      }),
    );
    assert.equal(statuses.filter((s) => s === 200).length, 10, JSON.stringify(statuses));
    assert.equal(statuses.filter((s) => s === 402).length, 190);
    const response = await fetch(`${service.baseUrl}/api/account?api_key=${account.apiKey}`);
    assert.equal(((await response.json()) as { credits: number }).credits, 0);
    const ledger = await service.running.store.db
      .selectFrom('ledger')
      .select(['kind', 'amount'])
      .where('account_id', '=', account.id)
      .execute();
    const total = (kind: string) =>
      ledger.filter((row) => row.kind === kind).reduce((sum, row) => sum + Number(row.amount), 0);
    // Ten reservations got through, and their ten settles charged one credit each.
    assert.equal(total('reserve'), -10, JSON.stringify(ledger));
    assert.equal(total('settle'), 10, JSON.stringify(ledger));
  });
});
