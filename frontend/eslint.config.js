import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Each folder of src/features: one feature. */
const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

export default tseslint.config(
  { ignores: ['node_modules', 'test-results', 'playwright-report', 'src/types/openapi.d.ts'] },
  {
    files: ['**/*.{ts,tsx}'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    languageOptions: { ecmaVersion: 2022, globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Imports flow one way: shared (components, lib, types, config) -> features -> app.
      'no-restricted-imports': 'off',
    },
  },
  {
    files: ['src/components/**', 'src/lib/**', 'src/types/**', 'src/config.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['@/features/*', '@/app/*'], message: 'Shared code must not import features or app.' }] },
      ],
    },
  },
  // bulletproof-react's rule: a feature imports neither the app layer nor another feature. What two
  // features share lives in components/ or lib/; a page made of several features is put together
  // in app/routes/app.
  ...features.map((feature) => ({
    files: [`src/features/${feature}/**`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@/app/*'], message: 'Features must not import the app layer.' },
            {
              regex: `^@/features/(?!${feature}/)`,
              message:
                'A feature must not import another feature: move what they share into components/ or lib/, or put the page together in app/routes/app.',
            },
            {
              regex: '^(\\.\\./){2,}',
              message: 'Import from outside the feature through @/, never ../../ (which could reach another feature).',
            },
          ],
        },
      ],
    },
  })),
);
