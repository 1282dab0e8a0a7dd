// The hidden suite of service-chain, as one test file. Most tests wait on real deadlines (a 300 ms
// budget, then a while longer to see whether any work goes on), and they are independent: each
// opens its own servers on its own ports in its own scope (harness.ts). The grader runs test files
// one after another, so the rules are declared here, in one file: S1 and S8 first, one rule at a
// time (their time budgets have no allowance for a busy machine, so nothing else runs beside them),
// then every other rule as concurrent describes of concurrent tests, so that they take about as long
// as the slowest test instead of the sum of every rule's slowest. The modules are imported in this
// order (the order the report lists the tests); each declares its rules when imported.
import './1-chain.ts';
import './2-deadline.ts';
import './3-hops.ts';
import './4-cancel.ts';
