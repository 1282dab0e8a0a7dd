// Explains, once and in one line, the EBADENGINE warnings npm prints while installing on an older Node:
// some packages ask for Node 22+, and every npm script here runs on the Node the `node` package
// installs in node_modules/.bin (24), so they are harmless. Silent on a Node that satisfies them.
const installer = /node\/v(\d+)/.exec(process.env.npm_config_user_agent ?? '')?.[1];
if (installer && Number(installer) < 22) {
  console.log(
    `Note: npm's EBADENGINE warnings are expected: npm runs on Node ${installer} here, but every npm script of this course runs on the Node ${process.versions.node} installed in node_modules (the "node" package).`,
  );
}
