import { scenarioSuite } from '../support/processor-scenarios';

// The growth-billing scenario table (test/support/processor-scenarios.ts) on the stripe processor.
scenarioSuite('stripe');
