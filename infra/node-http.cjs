// What bundles get for `node:http` (serverless.yml custom.esbuild.alias): Node's own module, as
// CommonJS. An ESM `import … from 'node:http'` makes Node read every export of the module to
// build its namespace, and the WebSocket getters among them load Node's bundled undici: about
// 25 ms of every cold start, for a client no handler uses (docs/performance.md, "What loads when").
module.exports = process.getBuiltinModule('node:http');
