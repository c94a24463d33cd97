import { afterAll, beforeAll } from 'vitest';
import { leaseTestDynamo, releaseTestDynamo } from './dynamo-endpoint';
import { dropTestTables } from './store';

// Registered for every data-touching file. Setup-file hooks come first: the lease is taken before
// the file's own beforeAll, and (hooks run as a stack) this afterAll runs after the file's own, so
// its runtime has stopped when its tables are dropped and the instance goes back.
beforeAll(leaseTestDynamo);
afterAll(async () => {
  await dropTestTables();
  await releaseTestDynamo();
});
