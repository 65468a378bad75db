/**
 * `npm run bench`: how fast the reference server is, side by side with a bare `node:http` server answering
 * the same bytes and with the Prism mock of the same contract, measured in one run on loopback; and the
 * quota-heavy path of image requests on each store (memory, SQLite, PostgreSQL).
 *
 *   npm run bench                      full run (four to five minutes); prints the tables
 *   npm run bench -- --quick           a few seconds: proves every measurement works (CI), judges no number
 *   npm run bench -- --write-docs      also puts the figures in docs/benchmarks.md
 *   npm run bench -- --cpu-prof        also writes a CPU profile of the reference server to artifacts/profiles/
 *   npm run bench -- --strict          exit 1 when a target is missed (full runs only)
 *   npm run bench -- --server-flags="--max-old-space-size=1024"   node flags for the reference servers
 *   npm run bench -- --out <folder>    where bench.json and bench.md go (default artifacts/)
 *
 * Exit code 1 when a measurement did not work (no figure, an error, a lost stream event), in every mode.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { root } from './lib/paths.ts';
import { writeFigures } from './bench/docs.ts';
import { renderMarkdown, renderText } from './bench/report.ts';
import { brokenMeasurements } from './bench/health.ts';
import { runBench } from './bench/run.ts';
import { serverLaunch } from './lib/server-launch.ts';
import { fullSettings, quickSettings } from './bench/settings.ts';

const launch = serverLaunch();
const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    'write-docs': { type: 'boolean', default: false },
    'cpu-prof': { type: 'boolean', default: false },
    strict: { type: 'boolean', default: false },
    // By default the reference servers get the node flags `npm start` gives them (package.json `config`).
    'server-flags': { type: 'string', default: launch.nodeFlags.join(' ') },
    out: { type: 'string', default: join(root, 'artifacts') },
  },
});

const outDir = resolve(values.out!);
const results = await runBench({
  settings: values.quick ? quickSettings : fullSettings,
  outDir,
  cpuProfile: values['cpu-prof'],
  serverFlags: values['server-flags']!.split(' ').filter(Boolean),
  serverEnv: launch.env,
  log: (line) => process.stderr.write(`bench: ${line}\n`),
});

console.log(`\n${renderText(results)}\n`);
writeFileSync(join(outDir, 'bench.json'), `${JSON.stringify(results, null, 2)}\n`);
writeFileSync(join(outDir, 'bench.md'), `# Benchmark\n\n${renderMarkdown(results)}`);
console.log(`Written to ${join(outDir, 'bench.json')} and bench.md${values['cpu-prof'] ? `; CPU profile in ${join(outDir, 'profiles')}` : ''}.`);
if (values['write-docs']) {
  writeFigures(join(root, 'docs', 'benchmarks.md'), results);
  console.log('Figures written to docs/benchmarks.md.');
}

const broken = brokenMeasurements(results);
if (broken.length > 0) {
  console.error(`\nThese measurements did not work:\n${broken.map((b) => `  - ${b}`).join('\n')}`);
  process.exitCode = 1;
}
const missed = results.targets.filter((t) => !t.met);
if (values.strict && results.mode === 'full' && missed.length > 0) {
  console.error(`\nTargets missed: ${missed.map((t) => t.name).join('; ')}`);
  process.exitCode = 1;
}
