import { afterAll } from 'vitest';
import { dropTestTables } from './store';

// Registered for every data-touching file: the tables its createTestDeps calls made go when it ends.
afterAll(dropTestTables);
