import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const NODE_BUILTINS = [
  'node:*', 'fs', 'fs/*', 'path', 'os', 'crypto', 'http', 'https', 'net', 'url', 'child_process', 'stream', 'events',
  'util', 'buffer', 'worker_threads', 'zlib', 'tls', 'dns', 'module', 'process',
];

/** The renderer's import rules, plus one more pattern where a stricter rule applies. */
const rendererImports = (extra) => ({
  paths: [{ name: 'electron', message: 'The renderer reaches Electron only through window.desktop (platform/).' }],
  patterns: [
    { group: NODE_BUILTINS, message: 'The renderer runs in a browser too: no Node built-ins.' },
    { group: ['**/main/**', '**/preload/**'], message: 'renderer imports only renderer, common and shared.' },
    ...(extra ? [extra] : []),
  ],
});

/**
 * Layers (DESIGN.md): shared imports only zod; the desktop's main, preload and renderer import only
 * their own layer, desktop/src/common and @atrium/shared; server modules never reach into another
 * module's routes (only app.ts wires routes).
 */
export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', 'coverage/**', 'test-artifacts/**', 'release/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      'no-console': 'error',
      eqeqeq: ['error', 'always'],
    },
  },
  {
    files: ['shared/src/**/*.ts'],
    ignores: ['shared/src/**/*.test.ts'],
    languageOptions: { globals: {} },
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^(?!zod$|\\.{1,2}/)', message: 'shared/ imports only zod and itself.' }] },
      ],
    },
  },
  {
    // Schemas build on the shared primitives (NUL-free text, int4 ids, real dates); the server's parse() also refuses NUL.
    files: ['shared/src/**/*.ts'],
    ignores: ['shared/src/schemas/common.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.object.name='z'][callee.property.name=/^(string|date)$/]",
          message: 'Use textSchema / instantSchema / calendarDaySchema from shared/src/schemas/common.ts.',
        },
        {
          selector: "MemberExpression[object.object.name='z'][object.property.name='coerce'][property.name='date']",
          message: 'Use instantSchema from shared/src/schemas/common.ts.',
        },
      ],
    },
  },
  {
    files: ['server/src/**/*.ts', 'server/testing/**/*.ts', 'server/bench/**/*.ts', 'desktop/scripts/**', 'scripts/**', '.ci/**', '*.js', '*.ts'],
    languageOptions: { globals: globals.node },
  },
  // A module is used through its public entry (its index.ts), never its inner files; entities are the shared
  // data model and stay importable directly. Its manifest (module.ts: routes, jobs, listeners) is for
  // modules/index.ts alone. The depth of the file decides which '../' leaves its module, as in the
  // renderer's rule below. Tests, test helpers, benchmarks and scripts may reach inside.
  ...[1, 2, 3].map((depth) => ({
    files: [`server/src/modules/*/${'*/'.repeat(depth - 1)}*.ts`],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: String.raw`^${'\\.\\./'.repeat(depth)}[a-z0-9-]+/(?!index\.js$)(?![a-z0-9.-]+\.entity\.js$)[a-z0-9./-]+$`,
              message: 'Another module is imported through its index.js (its public entry), not its inner files.',
            },
          ],
        },
      ],
    },
  })),
  {
    // modules/index.ts lists the manifests; modules/app-module.ts is the contract they implement.
    files: ['server/src/modules/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: String.raw`^\./[a-z0-9-]+/(?!index\.js$)(?!module\.js$)(?![a-z0-9.-]+\.entity\.js$)[a-z0-9./-]+$`,
              message: 'A module is imported through its index.js (or, by the list, its module.js), not its inner files.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['server/src/**/*.ts'],
    ignores: ['server/src/modules/**', '**/*.test.ts', 'server/testing/**', 'server/bench/**', 'server/src/scripts/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: String.raw`^(\./|(\.\./)+)modules/[a-z0-9-]+/(?!index\.js$)(?![a-z0-9.-]+\.entity\.js$)[a-z0-9./-]+$`,
              message: 'A module is imported through its index.js (its public entry), not its inner files.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['desktop/src/main/**/*.ts'],
    languageOptions: { globals: globals.node },
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/renderer/**', '**/preload/**'], message: 'main imports only main, common and shared.' }] },
      ],
    },
  },
  {
    files: ['desktop/src/preload/**/*.{ts,cts}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/renderer/**', '**/main/**'], message: 'preload imports only electron, common and shared.' }] },
      ],
    },
  },
  {
    files: ['desktop/src/renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
    rules: { 'no-restricted-imports': ['error', rendererImports()] },
  },
  // A feature does not import another feature (bulletproof-react): app/ composes them, and what two share
  // lives in components/, api/, hooks/ or stores/. The depth of the file decides which '../' reaches features/.
  ...[1, 2, 3, 4].map((depth) => ({
    files: [`desktop/src/renderer/features/*/${'*/'.repeat(depth - 1)}*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        rendererImports({
          regex: `^${'\\.\\./'.repeat(depth)}(?!\\.\\.)`,
          message: 'A renderer feature does not import another feature; share through components/, api/, hooks/ or stores/.',
        }),
      ],
    },
  })),
  {
    files: ['desktop/src/common/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'electron', message: 'common/ is types and constants for every layer.' }], patterns: [{ group: [...NODE_BUILTINS, '**/main/**', '**/preload/**', '**/renderer/**'], message: 'common/ imports nothing environment-specific.' }] },
      ],
    },
  },
);
