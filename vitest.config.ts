import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The JSON report lets CI print a plain "N passed, N failed" line (see .ci/run).
    reporters: ['default', 'json'],
    outputFile: { json: 'artifacts/vitest-results.json' },
  },
});
