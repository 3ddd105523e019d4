/// <reference types="vitest/config" />
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, URL } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { compression } from 'vite-plugin-compression2';

const backend = 'http://localhost:5150';
const src = fileURLToPath(new URL('./src', import.meta.url));
const reactRouter = (file: string) => fileURLToPath(new URL(`./node_modules/react-router/dist/${file}`, import.meta.url));

/** Where the build writes which file holds which module (chunkMap), relative to this file. */
const CHUNK_MAP = '.build/chunks.json';

/** The chunk of React and React DOM, which every page runs (see manualChunks below). */
const REACT_CHUNK = 'react';

/**
 * `<link rel="modulepreload">` in index.html for the named chunks. The entry (src/main.tsx) imports
 * every page lazily, so Vite preloads nothing from the page itself: without these links the browser
 * would ask for React only once the entry has run. With them, React comes while the entry does.
 */
function preloadFromHtml(names: string[]): Plugin {
  let base = '/';
  return {
    name: 'vendorwatch:preload-from-html',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle }) {
        const chunks = Object.values(bundle ?? {}).filter((file) => file.type === 'chunk' && names.includes(file.name));
        if (chunks.length !== names.length) throw new Error(`preloadFromHtml: no chunk for each of ${names.join(', ')}`);
        return chunks.map((chunk) => ({
          tag: 'link',
          attrs: { rel: 'modulepreload', crossorigin: true, href: `${base}${chunk.fileName}` },
          injectTo: 'head',
        }));
      },
    },
  };
}

/**
 * `.build/chunks.json` (beside this file, git-ignored): each JavaScript file of the build with the
 * source modules it holds (and their lengths), the files it imports, statically and lazily, and its
 * CSS. Vite's manifest names a file by the module it starts from, which a file holding several
 * pages' modules does not have; scripts/bundle-budget.mjs reads this instead to find the files a
 * visit loads. It is build metadata, not for browsers: it is written outside the build's output
 * (../assets), which the server serves as it is. A build that fails leaves none.
 */
function chunkMap(): Plugin {
  let root = '';
  let map = '';
  const path = () => join(root, CHUNK_MAP);
  return {
    name: 'vendorwatch:chunk-map',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    buildStart() {
      rmSync(path(), { force: true });
    },
    writeBundle() {
      mkdirSync(dirname(path()), { recursive: true });
      writeFileSync(path(), map);
    },
    generateBundle(_options, bundle) {
      type Chunk = {
        isEntry: boolean;
        modules: Record<string, number>;
        imports: string[];
        dynamicImports: string[];
        css: string[];
      };
      const files: Record<string, Chunk> = {};
      for (const file of Object.values(bundle)) {
        if (file.type !== 'chunk') continue;
        files[file.fileName] = {
          isEntry: file.isEntry,
          // Each module that left code in the file, with its length there (before minification).
          modules: Object.fromEntries(
            Object.entries(file.modules)
              .filter(([id, module]) => !id.startsWith('\0') && module.renderedLength > 0)
              .map(([id, module]) => [relative(root, id.replace(/\?.*$/, '')).replaceAll('\\', '/'), module.renderedLength]),
          ),
          imports: file.imports,
          dynamicImports: file.dynamicImports,
          css: [...(file.viteMetadata?.importedCss ?? [])],
        };
      }
      map = `${JSON.stringify(files, null, 1)}\n`;
    },
  };
}

const PAGE_FILES = 'virtual:page-files';
const PAGE_FILES_MARK = '__VENDORWATCH_PAGE_FILES__';

/**
 * `virtual:page-files` (src/app/preload-page.ts): the files to download for each page module, so
 * that the entry can ask for a page's code at the same time as the app's. The router alone imports
 * the pages (it is in the app's file), so Rollup splits them knowing that the app is there when a
 * page loads; the entry only preloads their files. A page module's files are the one holding it
 * and those it imports statically, less those the entry and the app load anyway. The file names
 * are written while Rollup still has placeholders for their hashes: the entry's own hash then
 * follows the pages' files.
 */
function pageFiles(): Plugin {
  let build = false;
  let base = '/';
  const resolved = `\0${PAGE_FILES}`;
  const pageKey = (id: string) => {
    const key = id.startsWith(`${src}/`) ? id.slice(src.length + 1) : '';
    return /^(features\/[^/]+\/routes\/[^/]+\.tsx|app\/routes\/app\/[^/]+\.tsx|app\/routes\/app-root\.tsx|app\/prefetch\.ts)$/.test(
      key,
    )
      ? key
      : null;
  };
  return {
    name: 'vendorwatch:page-files',
    configResolved(config) {
      build = config.command === 'build' && !config.build.ssr;
      base = config.base;
    },
    resolveId: (id) => (id === PAGE_FILES ? resolved : null),
    load: (id) => (id === resolved ? `export default ${build ? JSON.stringify(PAGE_FILES_MARK) : 'null'};` : null),
    renderChunk(code, chunk, _options, { chunks }) {
      if (!chunk.moduleIds.includes(resolved)) return null;
      const closure = (fileName: string, into = new Set<string>()) => {
        if (!into.has(fileName)) {
          into.add(fileName);
          chunks[fileName]?.imports.forEach((file) => closure(file, into));
        }
        return into;
      };
      const app = Object.values(chunks).find((c) => c.moduleIds.includes(`${src}/app/index.tsx`));
      if (!app) throw new Error('pageFiles: no file holds src/app/index.tsx');
      const loaded = new Set([...closure(chunk.fileName), ...closure(app.fileName)]);
      const files: string[] = [];
      const indexOf = (file: string) => {
        const index = files.indexOf(`${base}${file}`);
        return index >= 0 ? index : files.push(`${base}${file}`) - 1;
      };
      const modules: Record<string, number[]> = {};
      for (const c of Object.values(chunks)) {
        for (const id of c.moduleIds) {
          const key = pageKey(id);
          if (key) modules[key] = [...closure(c.fileName)].filter((file) => !loaded.has(file)).map(indexOf);
        }
      }
      const mark = new RegExp(`(["'])${PAGE_FILES_MARK}\\1`);
      if (!mark.test(code)) throw new Error(`pageFiles: ${PAGE_FILES_MARK} not found in ${chunk.fileName}`);
      return { code: code.replace(mark, () => JSON.stringify({ files, modules })), map: null };
    },
  };
}

export default defineConfig(({ command }) => ({
  plugins: [
    react(),
    tailwindcss(),
    preloadFromHtml([REACT_CHUNK]),
    chunkMap(),
    pageFiles(),
    // foo.js.gz beside foo.js, which the server sends to browsers that take gzip (config/*.yaml,
    // static.precompressed). Gzip only: Loco's static middleware serves no other encoding.
    compression({
      algorithms: ['gzip'],
      include: /\.(js|mjs|css|html|svg|json|txt|xml)$/,
    }),
  ],
  resolve: {
    alias: [
      { find: '@', replacement: src },
      // React Router 7's package exports name only its development build (remix-run/react-router
      // #12532, #14102), with its warnings and their messages: the build takes the production one.
      ...(command === 'build'
        ? [
            { find: /^react-router$/, replacement: reactRouter('production/index.mjs') },
            { find: /^react-router\/dom$/, replacement: reactRouter('production/dom-export.mjs') },
          ]
        : []),
    ],
  },
  server: {
    proxy: {
      '/api': backend,
      '/_ping': backend,
      // The weekly summary's unsubscribe page is the server's own (no sign-in, no app).
      '/unsubscribe': backend,
    },
  },
  build: {
    outDir: '../assets',
    emptyOutDir: true,
    // Keeps the strict CSP happy: no inlined scripts, no data: URLs for scripts.
    assetsInlineLimit: 0,
    sourcemap: false,
    // Every browser the app supports has <link rel="modulepreload">: no polyfill in the entry.
    modulePreload: { polyfill: false },
    rollupOptions: {
      output: {
        // Files under 5 KB (before minification) merged into others: fewer requests (a page made of
        // fifty small files waits on the browser's six connections), at the price of some code a
        // page does not run.
        experimentalMinChunkSize: 5000,
        // React and React DOM in a file of their own, which index.html preloads (preloadFromHtml).
        manualChunks: (id) => (/\/node_modules\/(react|react-dom|scheduler)\//.test(id) ? REACT_CHUNK : undefined),
      },
    },
  },
  test: {
    environment: 'jsdom',
    testTimeout: 20000,
    globals: false,
    setupFiles: ['./src/testing/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
    restoreMocks: true,
    // One (ESM) copy of react-router for both 'react-router' and 'react-router/dom'.
    alias: [
      {
        find: /^react-router$/,
        replacement: reactRouter('development/index.mjs'),
      },
      {
        find: /^react-router\/dom$/,
        replacement: reactRouter('development/dom-export.mjs'),
      },
    ],
  },
}));
