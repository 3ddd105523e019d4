/// <reference types="vitest/config" />
import { fileURLToPath, URL } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';

const backend = 'http://localhost:5150';
const src = fileURLToPath(new URL('./src', import.meta.url));
const reactRouter = (file: string) => fileURLToPath(new URL(`./node_modules/react-router/dist/${file}`, import.meta.url));

export default defineConfig(({ command }) => ({
  plugins: [
    react(),
    tailwindcss(),
    // foo.js.gz beside foo.js, which the server sends to browsers that take gzip (config/*.yaml,
    // static.precompressed). Gzip only: Loco's static middleware serves no other encoding.
    compression({
      algorithms: ['gzip'],
      include: /\.(js|mjs|css|html|svg|json|txt|xml)$/,
      exclude: /\.vite\//,
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
    },
  },
  build: {
    outDir: '../assets',
    emptyOutDir: true,
    // Keeps the strict CSP happy: no inlined scripts, no data: URLs for scripts.
    assetsInlineLimit: 0,
    sourcemap: false,
    // .vite/manifest.json: which files each page loads, for scripts/bundle-budget.mjs.
    manifest: true,
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
