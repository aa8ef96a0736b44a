/**
 * Migration 016 on both engines (issue 30, point 8): account names become unique. A database
 * from before may hold several accounts of one name; the oldest keeps it and each other one
 * gets `<name>-<its id's last 8 characters>`, so the index can be built and nothing is lost.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import {
  AccountNameTakenError,
  createAccount,
  listAccounts,
} from '../../../src/accounts/account-store.js';
import { up } from '../../../src/store/migrations/016-unique-account-names.js';
import { pgSkipReason } from '../../helpers/postgres.js';
import { openTestStore, type TestStore } from '../../helpers/test-store.js';

for (const engine of ['sqlite', 'postgres'] as const) {
  describe(`016: unique account names (${engine})`, {
    skip: engine === 'postgres' && pgSkipReason,
  }, () => {
    let harness: TestStore | null = null;
    after(() => harness?.close());

    it('renames all but the oldest of a shared name, then refuses a taken name', async () => {
      harness = await openTestStore(engine);
      const { db } = harness.store;
      // The database as it was before 016: no unique index, 001's plain one.
      await db.schema.dropIndex('accounts_name_unique').execute();
      await db.schema.createIndex('accounts_name').on('accounts').column('name').execute();
      const twins = [];
      for (let i = 0; i < 3; i += 1) {
        twins.push(
          (await createAccount(db, { name: 'acme', credits: i, concurrencyLimit: 1 })).account,
        );
      }
      await createAccount(db, { name: 'solo', credits: 0, concurrencyLimit: 1 });

      await up(db as unknown as Parameters<typeof up>[0]);

      const names = new Map((await listAccounts(db)).map((a) => [a.id, a.name]));
      assert.equal(names.get(twins[0]!.id), 'acme');
      assert.equal(names.get(twins[1]!.id), `acme-${twins[1]!.id.slice(-8)}`);
      assert.equal(names.get(twins[2]!.id), `acme-${twins[2]!.id.slice(-8)}`);
      assert.ok([...names.values()].includes('solo'));
      assert.equal(new Set(names.values()).size, names.size);
      await assert.rejects(
        createAccount(db, { name: 'acme', credits: 0, concurrencyLimit: 1 }),
        (error: unknown) =>
          error instanceof AccountNameTakenError &&
          error.message === 'An account named "acme" already exists',
      );
      assert.equal((await listAccounts(db)).length, 4, 'the refused account left nothing behind');
    });
  });
}
