// ESLint flat config. Boundaries first: only the thin Electron shell may import `electron`
// at run time (type-only imports are fine everywhere), so every logic module runs under Node.
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

const ELECTRON_SHELL = [
  'electron/main/index.ts',
  'electron/main/window/main-window.ts',
  'electron/main/ipc/electron-ipc.ts',
  'electron/main/security/apply-electron-security.ts',
  'electron/preload/index.ts',
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
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'electron',
              allowTypeImports: true,
              message:
                'Logic modules must run under plain Node: import electron only in the thin shell (see eslint.config.mjs).',
            },
          ],
        },
      ],
    },
  },
  { files: ELECTRON_SHELL, rules: { 'no-restricted-imports': 'off' } },
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
