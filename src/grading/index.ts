// The grading engine for Node (the command line, the local runner, grade-class): the pure core, which
// the browser imports on its own (./core/index.ts), and the Node back-end (./node/index.ts). Test
// fakes (./testing/) are imported by tests directly, never through here.
export * from './core/index.ts';
export * from './node/index.ts';
