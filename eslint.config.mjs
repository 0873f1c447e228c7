// ESLint flat config. Boundaries first (docs/architecture.md §Layout): layers point one way —
// shared ← wire ← broker, paper ← core ← app ← the two transports (main, host) — and only the thin
// Electron shell may import `electron` at run time (type-only imports are fine everywhere), so
// every logic module runs under plain Node.
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

const ELECTRON_SHELL = [
  'electron/main/index.ts',
  'electron/main/window/main-window.ts',
  'electron/main/window/desk-windows.ts',
  'electron/main/window/login-window.ts',
  'electron/main/ipc/electron-ipc.ts',
  'electron/main/security/apply-electron-security.ts',
  'electron/main/support/support-shell.ts',
  'electron/preload/index.ts',
];

/** Tests and test-only helpers wire real parts of any layer together; the layer rule skips them. */
const TEST_FILES = ['**/*.test.{ts,tsx}', '**/testing/**', '**/test-helpers.ts', 'renderer/test/**'];

/** Each main-process layer and the layers above it (or beside it) that it must never import. */
const ELECTRON_LAYERS = {
  wire: ['broker', 'paper', 'core', 'app', 'main', 'host', 'preload'],
  broker: ['core', 'app', 'main', 'host', 'paper', 'preload'],
  paper: ['broker', 'core', 'app', 'main', 'host', 'preload'],
  core: ['app', 'main', 'host', 'paper', 'preload'],
  app: ['main', 'host', 'preload'],
  host: ['main', 'preload'],
  main: ['host', 'preload'],
  preload: ['wire', 'broker', 'paper', 'core', 'app', 'main', 'host'],
};

/** The renderer's own layers: lib ← state ← features ← app.tsx. */
const RENDERER_LAYERS = { lib: ['state', 'features'], state: ['features'] };

const ELECTRON_ONLY_IN_SHELL = {
  name: 'electron',
  allowTypeImports: true,
  message: 'Logic modules must run under plain Node: import electron only in the thin shell (see eslint.config.mjs).',
};

/** A relative import that climbs into one of `dirs` (`'../core/x'`, `'../../app'`). */
const into = (dirs) => `^(\\.\\./)+(${dirs.join('|')})(/|$)`;

const layerRule = (layer, forbidden, electron) => [
  'error',
  {
    paths: electron ? [] : [ELECTRON_ONLY_IN_SHELL],
    patterns: [
      {
        regex: into(forbidden),
        message: `Layers point one way: ${layer} must not import ${forbidden.join(', ')} (docs/architecture.md §Layout).`,
      },
    ],
  },
];

export default tseslint.config(
  { ignores: ['out/**', 'release/**', 'node_modules/**', 'reports/**', 'test-results/**', 'scripts/**', '*.mjs'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      eqeqeq: ['error', 'smart'],
      'no-restricted-syntax': ['error', { selector: 'ExportDefaultDeclaration', message: 'Use named exports.' }],
      'no-restricted-imports': ['error', { paths: [ELECTRON_ONLY_IN_SHELL] }],
    },
  },
  ...Object.entries(ELECTRON_LAYERS).flatMap(([layer, forbidden]) => {
    const shell = ELECTRON_SHELL.filter((f) => f.startsWith(`electron/${layer}/`));
    return [
      {
        files: [`electron/${layer}/**/*.ts`],
        ignores: [...TEST_FILES, ...shell],
        rules: { 'no-restricted-imports': layerRule(`electron/${layer}`, forbidden, false) },
      },
      ...(shell.length
        ? [{ files: shell, rules: { 'no-restricted-imports': layerRule(`electron/${layer}`, forbidden, true) } }]
        : []),
    ];
  }),
  {
    files: ['renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['node:*', 'electron', '**/electron/**'],
              message: 'The renderer is untrusted and powerless: no Node, no Electron, no main-process code.',
            },
          ],
        },
      ],
    },
  },
  ...Object.entries(RENDERER_LAYERS).map(([layer, forbidden]) => ({
    files: [`renderer/${layer}/**/*.{ts,tsx}`],
    ignores: TEST_FILES,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['node:*', 'electron', '**/electron/**'],
              message: 'The renderer is untrusted and powerless: no Node, no Electron, no main-process code.',
            },
            {
              regex: into(forbidden),
              message: `Layers point one way: renderer/${layer} must not import ${forbidden.join(', ')} (docs/architecture.md §Layout).`,
            },
          ],
        },
      ],
    },
  })),
  {
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['node:*', 'electron', 'react', '**/electron/**', '**/renderer/**'],
              message: 'shared/ is used by both sides: no Node, Electron, React or side-specific code.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.config.ts', 'e2e/**/*.ts', 'bench/**/*.ts'],
    rules: { 'no-restricted-syntax': 'off' },
  },
);
