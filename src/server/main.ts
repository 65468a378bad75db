/**
 * The gateway's command line in the repository: `npm start` serves (`npm start -- --help` lists the settings),
 * `npm run migrate` migrates. The demo keys are on by default for a loopback host (decision D26), so that the
 * README's first run works as it is; the installed package (package/bin.ts) has them off unless asked for.
 */
import { runCommandLine } from './cli.ts';

process.exitCode = await runCommandLine(process.argv.slice(2), process.env, { program: 'npm start --', demoKeys: 'loopback' });
