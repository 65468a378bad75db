/**
 * The gateway's command line: serve (no command), `migrate`, `keys create`, `--help`, `--version`. Every
 * setting is a flag and an environment variable (config.ts). The repository's `npm start` (main.ts) and the
 * installed package's `ai-gateway` (package/bin.ts) are this one command line, named differently and with
 * their own default for the demo keys (decision D26).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { packageFile } from '../package-root.ts';
import { configFrom, settingOptions, settings, type ServerConfig, type SettingValues } from './config.ts';
import { createKey } from './keys-command.ts';
import { migrate } from './migrate.ts';
import { serve, type Command } from './serve.ts';

/** What `--help` says the demo keys' default is. */
const DEMO_KEYS_DEFAULT = { loopback: 'on for a loopback host only', asked: 'off' } as const;

/**
 * Runs the command `argv` asks for. Resolves with the exit code of a command that ends, or with undefined once
 * the server listens (it then runs until a signal).
 *
 * @example
 *   process.exitCode = await runCommandLine(process.argv.slice(2), process.env, { program: 'ai-gateway', demoKeys: 'asked' });
 */
export async function runCommandLine(argv: string[], env: NodeJS.ProcessEnv, command: Command): Promise<number | undefined> {
  let parsed: { values: SettingValues & { help?: boolean; version?: boolean; tier?: string; name?: string }; positionals: string[] };
  try {
    parsed = parseArgs({
      args: argv,
      options: { tier: { type: 'string' }, name: { type: 'string' }, help: { type: 'boolean', short: 'h' }, version: { type: 'boolean' }, ...settingOptions },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    return usageError(command, (error as Error).message);
  }
  const { values, positionals } = parsed;
  const action = positionals.join(' ');
  if (values.version) {
    const { name, version } = JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as { name: string; version: string };
    console.log(`${name} ${version}`);
    return 0;
  }
  if (values.help || action === 'help') {
    console.log(help(command));
    return 0;
  }
  if (!['', 'migrate', 'keys create'].includes(action)) return usageError(command, `no command '${action}'.`);
  if (action !== 'keys create' && (values.tier !== undefined || values.name !== undefined)) {
    return usageError(command, '--tier and --name belong to `keys create`.');
  }
  let config: ServerConfig;
  try {
    config = configFrom(values, env, command.demoKeys);
  } catch (error) {
    // Named as each command names its own errors.
    console.error(`${action === '' ? 'gateway' : action.split(' ')[0]}: ${(error as Error).message}`);
    return 2;
  }
  if (action === 'migrate') return migrate(config);
  if (action === 'keys create') return createKey(config, { name: values.name, tier: values.tier });
  await serve(config, env, command);
  return undefined;
}

function usageError(command: Command, message: string): number {
  console.error(`gateway: ${message} \`${command.program} --help\` lists the commands and settings.`);
  return 2;
}

/** `--help`: the commands, then every setting with its flag, its variable and its default. */
export function help(command: Command): string {
  const rows = settings.map((s) => {
    const flag = s.value === undefined ? `--${s.flag}, --no-${s.flag}` : `--${s.flag} ${s.value}`;
    const fallback = s.flag === 'demo-keys' ? DEMO_KEYS_DEFAULT[command.demoKeys] : s.default;
    return `  ${flag}   (${s.env})\n        ${s.about}; default: ${fallback}`;
  });
  return [
    `Usage: ${command.program} [settings]              serve the AI Model Gateway`,
    `       ${command.program} migrate [settings]      bring the store's schema up to date, then exit`,
    `       ${command.program} keys create --tier T [--name N] [settings]`,
    '           make an API key of tier T (starter, economy, pro, ultimate) in the store and print it, this once',
    `       ${command.program} --help | --version`,
    '',
    'Settings, each a flag or an environment variable (the flag wins):',
    ...rows,
  ].join('\n');
}
