import { scenarioSuite } from '../support/processor-scenarios';

// The growth-billing scenario table (test/support/processor-scenarios.ts) on the sandbox processor.
scenarioSuite('sandbox');
