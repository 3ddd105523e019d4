#!/usr/bin/env node
// The JavaScript a first-time visitor downloads, checked against the budgets of issue 16: the
// landing page under 100 KB, and the way from the registration form to the dashboard under 200 KB,
// gzipped (1 KB = 1,024 bytes). Reads the manifest of the last `npm run build` (../assets); exits
// 1 when a budget is exceeded. `--all` also lists other pages, `--json` prints the figures as JSON.
//
//   npm run bundle:check            # node scripts/bundle-budget.mjs
//
// A visit's JavaScript is the entry (src/main.tsx, which index.html loads) and the chunks of the
// modules it loads lazily on the way (the app, the routes, the signed-in layout, the route
// loaders), each with everything it imports statically: what index.html preloads and what Vite's
// preload helper fetches beside a lazy chunk. What is imported only later (`import()` on a click)
// is not counted. A file's size on the wire is that of its .gz copy, which the server sends to
// browsers that accept gzip; where none was written, the script gzips the file itself (level 9).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const KB = 1024;
const outDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'assets');
const manifestPath = join(outDir, '.vite', 'manifest.json');

/** What a visit loads besides the entry, in order: the app (src/app/index.tsx), its lazy routes. */
const visits = [
  { name: 'landing page (/)', budget: 100 * KB, modules: [] },
  {
    name: 'register -> /dashboard',
    budget: 200 * KB,
    modules: [
      'src/app/index.tsx',
      'src/features/auth/routes/register.tsx',
      'src/app/routes/app-root.tsx',
      'src/app/prefetch.ts',
      'src/features/dashboard/routes/dashboard.tsx',
    ],
  },
  { name: '/login', modules: ['src/app/index.tsx', 'src/features/auth/routes/login.tsx'], more: true },
  { name: '/blog', modules: ['src/app/index.tsx', 'src/features/blog/routes/blog-list.tsx'], more: true },
  {
    name: '/dashboard (signed in)',
    modules: [
      'src/app/index.tsx',
      'src/app/routes/app-root.tsx',
      'src/app/prefetch.ts',
      'src/features/dashboard/routes/dashboard.tsx',
    ],
    more: true,
  },
];

function readManifest() {
  if (!existsSync(manifestPath)) {
    console.error(`bundle-budget: ${manifestPath} is missing; run \`npm run build\` first.`);
    process.exit(2);
  }
  return JSON.parse(readFileSync(manifestPath, 'utf8'));
}

/** Bytes of one built file: raw, and gzipped as served. */
function fileSizes(file) {
  const path = join(outDir, file);
  const raw = statSync(path).size;
  const gz = existsSync(`${path}.gz`) ? statSync(`${path}.gz`).size : gzipSync(readFileSync(path), { level: 9 }).length;
  return { raw, gz };
}

/**
 * The manifest key of the chunk a lazily imported module starts. A chunk that also exports code
 * other chunks share has no source name in the manifest, only its chunk name (the module's file
 * name), which has to be unique among the lazy chunks.
 */
function chunkKey(manifest, module) {
  if (manifest[module]) return module;
  const name = basename(module).replace(/\.[jt]sx?$/, '');
  const keys = Object.keys(manifest).filter((key) => manifest[key].isDynamicEntry && manifest[key].name === name);
  if (keys.length !== 1)
    throw new Error(`${module}: ${keys.length} lazy chunks named ${name} in the build (is it still imported lazily?)`);
  return keys[0];
}

/** The manifest entries a visit loads: the entry, the given lazy modules, and their static imports. */
function chunksOf(manifest, modules) {
  const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
  const seen = new Set();
  const add = (key) => {
    if (seen.has(key)) return;
    seen.add(key);
    (manifest[key].imports ?? []).forEach(add);
  };
  [entryKey, ...modules.map((module) => chunkKey(manifest, module))].forEach(add);
  return [...seen].map((key) => manifest[key]);
}

function measure(manifest, visit) {
  const chunks = chunksOf(manifest, visit.modules);
  const files = (kind) => [...new Set(chunks.flatMap((c) => (kind === 'js' ? [c.file] : (c.css ?? []))))];
  const total = (list) =>
    list.map(fileSizes).reduce((sum, size) => ({ raw: sum.raw + size.raw, gz: sum.gz + size.gz }), { raw: 0, gz: 0 });
  return { ...visit, js: total(files('js')), css: total(files('css')), jsFiles: files('js').length };
}

const kb = (bytes) => `${(bytes / KB).toFixed(1)} KB`;

const manifest = readManifest();
const all = process.argv.includes('--all');
const results = visits.filter((visit) => all || !visit.more).map((visit) => measure(manifest, visit));

if (process.argv.includes('--json')) {
  console.log(JSON.stringify(results, null, 2));
} else {
  console.log('JavaScript a first visit downloads, gzipped (as served) / raw; and its CSS:');
  for (const r of results) {
    const budget = r.budget ? `  budget ${kb(r.budget)}${r.js.gz > r.budget ? '  OVER' : ''}` : '';
    console.log(
      `  ${r.name.padEnd(24)} JS ${kb(r.js.gz).padStart(9)} / ${kb(r.js.raw).padStart(9)} in ${String(r.jsFiles).padStart(2)} files` +
        `   CSS ${kb(r.css.gz).padStart(8)} / ${kb(r.css.raw).padStart(9)}${budget}`,
    );
  }
}

const over = results.filter((r) => r.budget && r.js.gz > r.budget);
if (over.length) {
  console.error(`bundle-budget: over budget: ${over.map((r) => r.name).join(', ')}`);
  process.exit(1);
}
