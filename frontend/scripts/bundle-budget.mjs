#!/usr/bin/env node
// The JavaScript a first-time visitor downloads, checked against the budgets of
// docs/benchmarks/frontend.md: the landing page under 100 KB, and the way from the registration
// form to the dashboard under 216 KB (docs/decisions.md, 39 and 52), gzipped (1 KB = 1,024
// bytes). Reads the last `npm run build` (../assets); exits 1 when a budget is exceeded. `--all` also lists other pages, `--files` each visit's files, `--json` prints the
// figures as JSON.
//
//   npm run bundle:check            # node scripts/bundle-budget.mjs
//
// A visit's JavaScript is what index.html loads (the entry, src/main.tsx, and the files it
// preloads) and the files holding the modules the visit loads lazily on the way (the landing page
// or the app, the page, the signed-in layout, the route loaders, the part of the dashboard that
// loads once its top is drawn), each with every file it imports
// statically: what Vite's preload helper fetches beside a lazy module. What is imported only later
// (`import()` on a click) is not counted. Which file holds which module comes from
// .build/chunks.json (vite.config.ts, chunkMap; kept out of ../assets, which the server serves).
// A file's size on the wire is that of its .gz copy, which the server sends to browsers that
// accept gzip; where none was written, the script gzips the file itself (level 9).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const KB = 1024;
const frontend = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(frontend, '..', 'assets');
const chunksPath = join(frontend, '.build', 'chunks.json');
const htmlPath = join(outDir, 'index.html');

/** The modules a visit loads lazily, in order: the landing page, or the app and its pages. */
const visits = [
  { name: 'landing page (/)', budget: 100 * KB, modules: ['src/app/standalone-landing.tsx'] },
  {
    name: 'register -> /dashboard',
    budget: 216 * KB,
    modules: [
      'src/app/standalone-landing.tsx',
      'src/app/index.tsx',
      'src/features/auth/routes/register.tsx',
      'src/app/routes/app-root.tsx',
      'src/app/prefetch.ts',
      'src/app/routes/app/dashboard.tsx',
      'src/app/routes/app/dashboard/details.tsx',
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
      'src/app/routes/app/dashboard.tsx',
      'src/app/routes/app/dashboard/details.tsx',
    ],
    more: true,
  },
];

function readBuild() {
  if (!existsSync(chunksPath) || !existsSync(htmlPath)) {
    console.error(`bundle-budget: ${chunksPath} or ${htmlPath} is missing; run \`npm run build\` first.`);
    process.exit(2);
  }
  const html = readFileSync(htmlPath, 'utf8');
  /** What index.html itself asks for: its script, the modules it preloads, its stylesheets. */
  const fromHtml = [...html.matchAll(/<(?:script|link)\b[^>]*?(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]);
  return { chunks: JSON.parse(readFileSync(chunksPath, 'utf8')), fromHtml };
}

/** Bytes of one built file: raw, and gzipped as served. */
function fileSizes(file) {
  const path = join(outDir, file);
  const raw = statSync(path).size;
  const gz = existsSync(`${path}.gz`) ? statSync(`${path}.gz`).size : gzipSync(readFileSync(path), { level: 9 }).length;
  return { raw, gz };
}

/** The file holding `module`. */
function fileOf(chunks, module) {
  const files = Object.keys(chunks).filter((file) => module in chunks[file].modules);
  if (files.length !== 1) throw new Error(`${module}: in ${files.length} files of the build (is it still in the build?)`);
  return files[0];
}

/** The files a visit loads: index.html's, the files holding the given modules, and their static imports. */
function filesOf({ chunks, fromHtml }, modules) {
  const seen = new Set();
  const add = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    (chunks[file]?.imports ?? []).forEach(add);
  };
  [...fromHtml.filter((file) => file.endsWith('.js')), ...modules.map((module) => fileOf(chunks, module))].forEach(add);
  const css = new Set([...fromHtml.filter((file) => file.endsWith('.css')), ...[...seen].flatMap((file) => chunks[file].css)]);
  return { js: [...seen], css: [...css] };
}

function measure(build, visit) {
  const files = filesOf(build, visit.modules);
  const total = (list) =>
    list.map(fileSizes).reduce((sum, size) => ({ raw: sum.raw + size.raw, gz: sum.gz + size.gz }), { raw: 0, gz: 0 });
  return { ...visit, js: total(files.js), css: total(files.css), jsFiles: files.js.length, files: files.js };
}

const kb = (bytes) => `${(bytes / KB).toFixed(1)} KB`;

const build = readBuild();
const all = process.argv.includes('--all');
const results = visits.filter((visit) => all || !visit.more).map((visit) => measure(build, visit));

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
    if (process.argv.includes('--files'))
      for (const file of r.files) console.log(`      ${file.padEnd(48)} ${kb(fileSizes(file).gz).padStart(9)}`);
  }
}

const over = results.filter((r) => r.budget && r.js.gz > r.budget);
if (over.length) {
  console.error(`bundle-budget: over budget: ${over.map((r) => r.name).join(', ')}`);
  process.exit(1);
}
