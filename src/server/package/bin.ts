/**
 * `ai-gateway`, the command of the installed package (`npm run pack:gateway` builds it): the gateway's command
 * line, with the demo keys off unless `--demo-keys` asks for them (decision D26), since an operator's gateway
 * must not open with keys everyone knows.
 */
import { runCommandLine } from '../cli.ts';

process.exitCode = await runCommandLine(process.argv.slice(2), process.env, { program: 'ai-gateway', demoKeys: 'asked' });
