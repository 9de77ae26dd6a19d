// Assembles packages/client/dist from the two builds of src/client (npm run build calls this):
// dist/cjs: the CommonJS build (dist/src/client) with the declarations; dist/esm: the ES module
// build (dist/client-esm) with the same declarations. Each folder says its module kind in a
// package.json, so Node and TypeScript read the files as what they are.
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const out = path.join(root, 'packages', 'client', 'dist');
const cjsIn = path.join(root, 'dist', 'src', 'client');
const esmIn = path.join(root, 'dist', 'client-esm');

fs.rmSync(out, { recursive: true, force: true });
for (const [dir, kind] of [
  ['cjs', 'commonjs'],
  ['esm', 'module'],
]) {
  fs.mkdirSync(path.join(out, dir), { recursive: true });
  fs.writeFileSync(path.join(out, dir, 'package.json'), `${JSON.stringify({ type: kind })}\n`);
}
const copy = (from, to, name) => {
  // source maps point into the repository, which a package does not carry
  const text = fs.readFileSync(path.join(from, name), 'utf8').replace(/\n\/\/# sourceMappingURL=.*\n?$/, '\n');
  fs.writeFileSync(path.join(to, name), text);
};
for (const f of fs.readdirSync(cjsIn).filter((n) => n.endsWith('.js'))) copy(cjsIn, path.join(out, 'cjs'), f);
for (const f of fs.readdirSync(esmIn)) {
  if (f.endsWith('.js') || f.endsWith('.d.ts')) copy(esmIn, path.join(out, 'esm'), f);
  if (f.endsWith('.d.ts')) copy(esmIn, path.join(out, 'cjs'), f);
}
