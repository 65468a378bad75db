/**
 * `npm run bench`: how fast the reference server is, side by side with a bare `node:http` server answering
 * the same bytes and with the Prism mock of the same contract, measured in one run on loopback; and the
 * quota-heavy path of image requests on each store (memory, SQLite, PostgreSQL).
 *
 * Its options: USAGE below (`npm run bench -- --help` prints it).
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { root } from './lib/paths.ts';
import { writeComparison, writeFigures } from './bench/docs.ts';
import { renderMarkdown, renderText } from './bench/report.ts';
import { brokenMeasurements } from './bench/health.ts';
import { runBench } from './bench/run.ts';
import { serverLaunch } from './lib/server-launch.ts';
import { fullSettings, quickSettings } from './bench/settings.ts';
import { compareBuilds, compareFullSettings, compareQuickSettings } from './bench/compare.ts';
import { brokenComparison, renderComparisonMarkdown, renderComparisonText } from './bench/compare-report.ts';
import { requestKinds, type RequestKind } from './bench/requests.ts';
import type { TargetVerdict } from './bench/results.ts';

const USAGE = `  npm run bench                      full run (four to five minutes); prints the tables
  npm run bench -- --quick           a few seconds: proves every measurement works (CI), judges no number
  npm run bench -- --write-docs      also puts the figures in docs/benchmarks.md
  npm run bench -- --cpu-prof        also writes a CPU profile of the reference server to artifacts/profiles/
  npm run bench -- --strict          exit 1 when a target is missed (full runs only)
  npm run bench -- --server-flags="--max-old-space-size=1024"   node flags for the reference servers
  npm run bench -- --out <folder>    where bench.json and bench.md go (default artifacts/)

Comparing this tree's server with another commit's (compare.ts), instead of the run above:

  npm run bench -- --baseline <ref>  both built, measured in turn on each kind of request beside bare node:http
                                     and Fastify alone replaying this tree's answers (about eighteen minutes, plus the
                                     baseline's npm ci when its lock differs); bench-compare.json/.md
       … --kinds models,chat          only these kinds (models, chat, chat-stream, messages, messages-stream,
                                     responses, responses-stream)
       … --rounds 15                  rounds of 3 s per server and kind (default 5; 1 to 100): on a noisy host
                                     the median of more rounds moves less between runs
       … --cpu-prof                   also profiles each kind on each build: where the CPU time goes
       … --instructions               also counts instructions per request under callgrind (valgrind): some
                                     twenty minutes more with all seven kinds
       … --survivors                  also samples what outlives the young generation per request (heap profiler)
       … --quick / --write-docs / --strict   as above

Exit code 1 when a measurement did not work (no figure, an error, a lost stream event), in every mode.
`;

const launch = serverLaunch();
/** The command line, or its usage and exit code 2 when it has an option this script does not know. */
function commandLine() {
  try {
    return parseArgs({
      options: {
        quick: { type: 'boolean', default: false },
        'write-docs': { type: 'boolean', default: false },
        'cpu-prof': { type: 'boolean', default: false },
        strict: { type: 'boolean', default: false },
        // By default the reference servers get the node flags `npm start` gives them (package.json `config`).
        'server-flags': { type: 'string', default: launch.nodeFlags.join(' ') },
        out: { type: 'string', default: join(root, 'artifacts') },
        baseline: { type: 'string' },
        kinds: { type: 'string', default: requestKinds.join(',') },
        rounds: { type: 'string' },
        instructions: { type: 'boolean', default: false },
        survivors: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    process.stderr.write(`bench: ${(error as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
}
const { values } = commandLine();

if (values.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}

const outDir = resolve(values.out!);
const serverFlags = values['server-flags']!.split(' ').filter(Boolean);
const log = (line: string) => process.stderr.write(`bench: ${line}\n`);
let broken: string[];
let targets: TargetVerdict[];
let mode: 'full' | 'quick';

if (values.rounds !== undefined && values.baseline === undefined) {
  console.error('--rounds is an option of the comparison of builds: give --baseline <ref> too');
  process.exit(2);
}

if (values.baseline !== undefined) {
  const kinds = values.kinds!.split(',').filter(Boolean);
  const unknown = kinds.filter((k) => !(requestKinds as readonly string[]).includes(k));
  if (unknown.length > 0 || kinds.length === 0) {
    console.error(`--kinds: unknown ${unknown.join(', ') || '(none given)'}; choose from ${requestKinds.join(', ')}`);
    process.exit(2);
  }
  const settings = values.quick ? compareQuickSettings : compareFullSettings;
  const rounds = values.rounds === undefined ? settings.rounds : Number(values.rounds);
  if (!Number.isInteger(rounds) || rounds < 1 || rounds > 100) {
    console.error(`--rounds: ${values.rounds} is not a whole number from 1 to 100`);
    process.exit(2);
  }
  const results = await compareBuilds({
    baseline: values.baseline,
    kinds: kinds as RequestKind[],
    settings: { ...settings, rounds },
    serverFlags,
    serverEnv: launch.env,
    cpuProfile: values['cpu-prof'],
    instructions: values.instructions,
    survivors: values.survivors,
    outDir,
    log,
  });
  console.log(`\n${renderComparisonText(results)}\n`);
  writeFileSync(join(outDir, 'bench-compare.json'), `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(join(outDir, 'bench-compare.md'), `# Comparison of builds\n\n${renderComparisonMarkdown(results)}`);
  console.log(`Written to ${join(outDir, 'bench-compare.json')} and bench-compare.md${values['cpu-prof'] ? `; CPU profiles in ${join(outDir, 'profiles')}` : ''}.`);
  if (values['write-docs']) {
    writeComparison(join(root, 'docs', 'benchmarks.md'), results);
    console.log('Comparison written to docs/benchmarks.md.');
  }
  broken = brokenComparison(results);
  targets = results.targets;
  mode = results.mode;
} else {
  const results = await runBench({
    settings: values.quick ? quickSettings : fullSettings,
    outDir,
    cpuProfile: values['cpu-prof'],
    serverFlags,
    serverEnv: launch.env,
    log,
  });
  console.log(`\n${renderText(results)}\n`);
  writeFileSync(join(outDir, 'bench.json'), `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(join(outDir, 'bench.md'), `# Benchmark\n\n${renderMarkdown(results)}`);
  console.log(`Written to ${join(outDir, 'bench.json')} and bench.md${values['cpu-prof'] ? `; CPU profile in ${join(outDir, 'profiles')}` : ''}.`);
  if (values['write-docs']) {
    writeFigures(join(root, 'docs', 'benchmarks.md'), results);
    console.log('Figures written to docs/benchmarks.md.');
  }
  broken = brokenMeasurements(results);
  targets = results.targets;
  mode = results.mode;
}

if (broken.length > 0) {
  console.error(`\nThese measurements did not work:\n${broken.map((b) => `  - ${b}`).join('\n')}`);
  process.exitCode = 1;
}
const missed = targets.filter((t) => !t.met);
if (values.strict && mode === 'full' && missed.length > 0) {
  console.error(`\nTargets missed: ${missed.map((t) => t.name).join('; ')}`);
  process.exitCode = 1;
}
