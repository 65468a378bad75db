#!/usr/bin/env node
// The `gateway-conformance` command: loads the TypeScript sources through tsx (a dev dependency of this
// project), then runs the command line.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('./cli.ts');
process.exitCode = await main(process.argv.slice(2));
