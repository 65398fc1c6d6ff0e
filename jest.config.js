/** Three levels of tests, named by path: *.spec.ts (unit), *.int-spec.ts (real servers), e2e/ (running platform). */
const base = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.spec.json' }] },
  moduleNameMapper: { '^@platform/(.*)$': '<rootDir>/libs/$1/src' },
  moduleFileExtensions: ['ts', 'js', 'json'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
};

module.exports = {
  projects: [
    { ...base, displayName: 'unit', testMatch: ['<rootDir>/{libs,services,scripts}/**/*.spec.ts'] },
    { ...base, displayName: 'integration', testMatch: ['<rootDir>/{libs,services}/**/*.int-spec.ts'] },
    { ...base, displayName: 'e2e', testMatch: ['<rootDir>/e2e/**/*.e2e-spec.ts'] },
  ],
};
