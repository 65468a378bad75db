/**
 * Builds the typed client for the package's `./client` export: `src/client` compiled by tsc
 * (tsconfig.build.json) to `dist/client` as ES2022 modules with declarations. The declarations import
 * `generated/schema.d.ts` by a relative path, so the package ships `generated/` beside `dist/`.
 *
 *   tsx scripts/build-client.ts
 */
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { bin, root } from './lib/paths.ts';

const out = join(root, 'dist', 'client');
rmSync(out, { recursive: true, force: true });
execFileSync(bin('tsc'), ['-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
console.log('Client written to dist/client (import it as ai-gateway-contract/client).');
