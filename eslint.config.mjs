// ESLint (flat config): typescript-eslint's recommended type-checked rules on every TypeScript
// file, tests included, plus the promise and switch rules the project relies on. Formatting is
// prettier's (eslint-config-prettier turns off the rules it owns). `npm run lint` allows no warning.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'libs/proto/src/gen/**', '.cache/**', '.data/**', 'coverage/**', '.nx/**'] },
  {
    files: ['**/*.ts'],
    extends: [js.configs.recommended, ...tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { project: ['./scripts/tsconfig.typecheck.json'], tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // Tests read parsed JSON (API bodies, documents, probe output) whose honest type is `any`, and
    // fake async interfaces with plain values: the unsafe-any and require-await rules would only add
    // casts there. Every other rule, no-floating-promises first, holds in tests as in the code.
    files: [
      '**/*.spec.ts',
      '**/*.int-spec.ts',
      '**/*.cluster-spec.ts',
      '**/*.e2e-spec.ts',
      '**/*.contract.ts',
      'e2e/**/*.ts',
      '**/src/testing/**/*.ts',
      'libs/testing/**/*.ts',
    ],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    extends: [js.configs.recommended],
    languageOptions: {
      sourceType: 'commonjs',
      globals: {
        require: 'readonly',
        module: 'writable',
        process: 'readonly',
        console: 'readonly',
        __dirname: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        URL: 'readonly',
        fetch: 'readonly',
        performance: 'readonly',
      },
    },
  },
  { files: ['**/*.mjs'], languageOptions: { sourceType: 'module' } },
  prettier,
);
