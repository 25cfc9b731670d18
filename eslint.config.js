import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import globals from 'globals';

/** The client's feature folders (src/ui/features/<area>): each is a boundary of its own. */
const features = readdirSync(new URL('./src/ui/features', import.meta.url), {
  withFileTypes: true,
})
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

export default tseslint.config(
  {
    ignores: [
      'node_modules',
      'dist',
      'build',
      '.vitrina-test-*',
      'styled-system',
      'data',
      'src/ui/routeTree.gen.ts',
      'postcss.config.cjs',
      'test-results',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.browser, ...globals.node },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      '@typescript-eslint/only-throw-error': 'off',
    },
  },
  {
    files: ['src/ui/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    // The domain core is pure: it imports nothing of ours outside src/core, and no I/O.
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['../*', '!./*'], message: 'src/core imports nothing outside src/core.' },
            {
              group: ['**/ui/**', '**/server/**', '**/workers/**', '**/machines/**'],
              message: 'src/core imports nothing outside src/core.',
            },
            {
              group: ['node:*', 'fs', 'path', 'pg', 'hono', 'react', 'react-dom'],
              message: 'src/core is pure: no I/O, no framework.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/ui/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/server/**'], message: 'The client reaches the server only over HTTP.' },
          ],
        },
      ],
    },
  },
  {
    // Dependencies point one way, ui -> machines -> workers -> core: machines and workers
    // import no UI (a machine's actors report outcomes in types of src/machines, and the
    // component that provides them reads the API's errors into those).
    files: ['src/machines/**/*.ts', 'src/workers/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/server/**'], message: 'The client reaches the server only over HTTP.' },
            {
              group: ['**/ui/**', '**/ui'],
              message:
                'Dependencies point ui -> machines -> workers -> core: src/machines and src/workers import nothing from src/ui.',
            },
          ],
        },
      ],
    },
  },
  {
    // Import graph rules, on resolved paths (a relative '../../quotes/…' reaches another feature
    // as surely as an absolute one, so import-string patterns cannot tell).
    files: ['**/*.{ts,tsx,js,mjs}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [
        createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] }),
      ],
    },
    rules: {
      // A cycle makes the load order decide what a module sees; type-only imports are fine.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    // Client structure (ARCHITECTURE.md): routes compose features; a feature imports the shared
    // layers (src/ui/lib, components, layouts, theme, i18n), core, machines and workers, never
    // another feature; the shared layers import no feature and no route.
    files: ['src/ui/**/*.{ts,tsx}'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...features.map((feature) => ({
              target: `./src/ui/features/${feature}`,
              from: './src/ui/features',
              except: [`./${feature}`],
              message: `The ${feature} feature imports no other feature: move what two features share to src/ui/lib or src/ui/components, or compose them in the route.`,
            })),
            {
              target: './src/ui/features',
              from: './src/ui/routes',
              message: 'Routes import features, not the other way round.',
            },
            {
              target: [
                './src/ui/lib',
                './src/ui/components',
                './src/ui/layouts',
                './src/ui/theme',
                './src/ui/i18n',
                './src/ui/session.tsx',
              ],
              from: ['./src/ui/features', './src/ui/routes'],
              message: 'Shared client code imports no feature and no route.',
            },
          ],
        },
      ],
    },
  },
  {
    // Tests read untyped JSON answers on purpose; the assertions are their type checks.
    files: ['tests/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
  },
);
