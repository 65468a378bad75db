/**
 * `npm run bench`: how fast the reference server is, side by side with a bare `node:http` server answering the
 * same bytes, on loopback; or, with `--baseline <ref>`, this tree's server against another commit's, kind of
 * request by kind. Its options: USAGE below (`npm run bench -- --help`).
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { root } from './lib/paths.ts';
import { serverLaunch } from './lib/server-launch.ts';
import { compareBuilds } from './bench/compare.ts';
import { renderComparisonMarkdown, renderComparisonText, writeComparison } from './bench/compare-report.ts';
import { brokenComparison, brokenMeasurements } from './bench/judge.ts';
import { renderMarkdown, renderText, writeFigures } from './bench/report.ts';
import { requestKinds, type RequestKind } from './bench/requests.ts';
import { runBench } from './bench/run.ts';
import { compareFullSettings, compareQuickSettings, fullSettings, quickSettings } from './bench/settings.ts';

const USAGE = `  npm run bench                      full run (about six minutes); prints the tables
  npm run bench -- --quick           a few seconds: proves every measurement works (CI), judges no number
  npm run bench -- --write-docs      also puts the figures in docs/benchmarks.md (only when every measurement worked)
  npm run bench -- --cpu-prof        also writes CPU profiles of the reference server to <out>/profiles/
  npm run bench -- --strict          exit 1 when a target is missed (full runs only)
  npm run bench -- --server-flags="--max-old-space-size=1024"   node flags for the reference servers
  npm run bench -- --out <folder>    where the results go (default artifacts/)

Comparing this tree's server with another commit's, instead of the run above:

  npm run bench -- --baseline <ref>  both built and measured in turn on each kind of request, beside bare
                                     node:http and Fastify alone replaying this tree's answers (about fifteen
                                     minutes, plus the baseline's npm ci when its lock differs)
       … --kinds models,chat          only these kinds (${requestKinds.join(', ')})
       … --rounds 15                  rounds of each server and kind (default 5; 1 to 100): on a noisy host the
                                     median of more rounds moves less between runs
       … --cpu-prof                   also writes CPU profiles of both builds' servers, per kind
       … --quick / --write-docs       as above

Exit code 1 when a measurement did not work (no figure, an error, a lost stream event), in every mode.
`;

const launch = serverLaunch();
const flag = { type: 'boolean', default: false } as const;
/** The command line, or its usage and exit code 2 when it has an option this script does not know. */
function commandLine() {
  try {
    return parseArgs({
      options: {
        quick: flag,
        'write-docs': flag,
        'cpu-prof': flag,
        strict: flag,
        // By default the reference servers get the node flags `npm start` gives them (package.json `config`).
        'server-flags': { type: 'string', default: launch.nodeFlags.join(' ') },
        out: { type: 'string', default: join(root, 'artifacts') },
        baseline: { type: 'string' },
        kinds: { type: 'string', default: requestKinds.join(',') },
        rounds: { type: 'string' },
        help: { ...flag, short: 'h' },
      },
    }).values;
  } catch (error) {
    process.stderr.write(`bench: ${(error as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
}
const values = commandLine();
if (values.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}
const refuse = (message: string) => {
  console.error(message);
  process.exit(2);
};

const outDir = resolve(values.out);
const serverFlags = values['server-flags'].split(' ').filter(Boolean);
const log = (line: string) => process.stderr.write(`bench: ${line}\n`);
const docs = join(root, 'docs', 'benchmarks.md');

/** Prints a run's tables, writes them and every figure to `<out>/<name>.md|json`, and into the docs when asked and every measurement worked. */
function publish(name: string, title: string, results: object, tables: { text: string; markdown: string }, broken: string[], toDocs: () => void): void {
  console.log(`\n${tables.text}\n`);
  writeFileSync(join(outDir, `${name}.json`), `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(join(outDir, `${name}.md`), `# ${title}\n\n${tables.markdown}`);
  console.log(`Written to ${join(outDir, name)}.json and .md${values['cpu-prof'] ? `; CPU profiles in ${join(outDir, 'profiles')}` : ''}.`);
  if (values['write-docs'] && broken.length === 0) {
    toDocs();
    console.log('Written to docs/benchmarks.md.');
  }
  if (broken.length > 0) {
    console.error(`\nThese measurements did not work${values['write-docs'] ? ' (nothing written to docs/benchmarks.md)' : ''}:\n${broken.map((b) => `  - ${b}`).join('\n')}`);
    process.exitCode = 1;
  }
}

if (values.baseline !== undefined) {
  const kinds = values.kinds.split(',').filter(Boolean);
  const unknown = kinds.filter((k) => !(requestKinds as readonly string[]).includes(k));
  if (unknown.length > 0 || kinds.length === 0) refuse(`--kinds: unknown ${unknown.join(', ') || '(none given)'}; choose from ${requestKinds.join(', ')}`);
  const settings = values.quick ? compareQuickSettings : compareFullSettings;
  const rounds = values.rounds === undefined ? settings.rounds : Number(values.rounds);
  if (!Number.isInteger(rounds) || rounds < 1 || rounds > 100) refuse(`--rounds: ${values.rounds} is not a whole number from 1 to 100`);
  const options = { baseline: values.baseline, kinds: kinds as RequestKind[], settings: { ...settings, rounds }, serverFlags, serverEnv: launch.env, cpuProfile: values['cpu-prof'], outDir, log };
  const results = await compareBuilds(options);
  const tables = { text: renderComparisonText(results), markdown: renderComparisonMarkdown(results) };
  publish('bench-compare', 'Comparison of builds', results, tables, brokenComparison(results), () => writeComparison(docs, results));
} else {
  if (values.rounds !== undefined) refuse('--rounds is an option of the comparison of builds: give --baseline <ref> too');
  const results = await runBench({ settings: values.quick ? quickSettings : fullSettings, outDir, cpuProfile: values['cpu-prof'], serverFlags, serverEnv: launch.env, log });
  publish('bench', 'Benchmark', results, { text: renderText(results), markdown: renderMarkdown(results) }, brokenMeasurements(results), () => writeFigures(docs, results));
  const missed = results.targets.filter((t) => !t.met);
  if (values.strict && results.mode === 'full' && missed.length > 0) {
    console.error(`\nTargets missed: ${missed.map((t) => t.name).join('; ')}`);
    process.exitCode = 1;
  }
}
