/**
 * `gateway-conformance` / `npm run conformance -- …`: runs the suite against a server, prints the report,
 * writes the files asked for, and exits 0 (conforms), 1 (violations) or 2 (usage, unreachable).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { contractNames, loadContract } from '../contract/index.ts';
import { packageFile } from '../package-root.ts';
import { parseCli, USAGE, usageErrorText, type Output } from './args.ts';
import { formatList, formatProgress, formatReport } from './report/console.ts';
import { toHtml } from './report/html.ts';
import { toJson } from './report/json.ts';
import { toJunit } from './report/junit.ts';
import { conforms } from './results.ts';
import { listChecks, runConformance, UnreachableError, UsageError } from './run.ts';
import { parseProxyCli, PROXY_USAGE, runProxy } from './proxy/command.ts';
import type { Report } from './results.ts';

/** Writes a report file, creating the folders it goes in. */
function writeReport(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

function version(): string {
  const own = (JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as { version: string }).version;
  const described = contractNames.map((name) => `${name} "${loadContract(name).spec.info.title}" ${loadContract(name).spec.info.version}`);
  return `gateway-conformance ${own}; contracts: ${described.join('; ')}`;
}

/**
 * Runs the command with its arguments and returns the exit status (the caller exits).
 * @example
 * process.exitCode = await main(['--base-url', 'http://127.0.0.1:8080', '--key', 'pro=sk-demo-pro']);
 */
export async function main(argv: string[], out: Output = process.stdout, err: Output = process.stderr): Promise<number> {
  if (argv[0] === 'proxy') return proxyCommand(argv.slice(1), out, err);
  try {
    const options = parseCli(argv);
    if (options.help) {
      out.write(`${USAGE}\n`);
      return 0;
    }
    if (options.version) {
      out.write(`${version()}\n`);
      return 0;
    }
    if (options.list) {
      out.write(formatList(listChecks(options.contracts?.length ? options.contracts : undefined)));
      return 0;
    }
    const report = await runConformance({
      ...options,
      ...(options.quiet
        ? {}
        : { onProgress: ({ index, total, result }) => result && err.write(`${formatProgress(index, total, result)}\n`) }),
    });
    out.write(formatReport(report, { color: Boolean(out.isTTY) && !process.env.NO_COLOR }));
    writeReports(report, options);
    const { passed, failed, skipped } = report.summary;
    if (passed + failed === 0) {
      err.write(`gateway-conformance: no check ran (all ${skipped} were skipped; the summary above says why and what to pass).\n`);
      return 2;
    }
    if (!conforms(report)) return 1;
    return options.strict && skipped > 0 ? 1 : 0;
  } catch (e) {
    if (e instanceof UsageError) {
      err.write(usageErrorText('gateway-conformance', e.message));
      return 2;
    }
    if (e instanceof UnreachableError) {
      err.write(`gateway-conformance: ${e.message}\nIs the server running, and are --base-url and --contract right?\n`);
      return 2;
    }
    throw e;
  }
}

/** Writes the report files asked for (JUnit, JSON, HTML), creating their folders. */
function writeReports(report: Report, files: { junit?: string; json?: string; html?: string }): void {
  if (files.junit) writeReport(files.junit, toJunit(report));
  if (files.json) writeReport(files.json, toJson(report));
  if (files.html) writeReport(files.html, toHtml(report));
}

/** `gateway-conformance proxy …`: until SIGINT or SIGTERM. */
async function proxyCommand(argv: string[], out: Output, err: Output): Promise<number> {
  try {
    const options = parseProxyCli(argv);
    if (options.help) {
      out.write(`${PROXY_USAGE}\n`);
      return 0;
    }
    const stopped = new Promise<void>((resolve) => {
      process.once('SIGINT', () => resolve());
      process.once('SIGTERM', () => resolve());
    });
    return await runProxy(options, out, err, stopped, {
      files: (proxy) => writeReports(proxy.report(), options),
      console: (proxy) => formatReport(proxy.report(), { color: Boolean(out.isTTY) && !process.env.NO_COLOR }),
    });
  } catch (e) {
    if (e instanceof UsageError) {
      err.write(usageErrorText('gateway-conformance proxy', e.message));
      return 2;
    }
    if ((e as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      err.write(`gateway-conformance proxy: ${(e as Error).message}: pass another --port (0 picks a free one)\n`);
      return 2;
    }
    throw e;
  }
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('/conformance/cli.ts')) {
  process.exitCode = await main(process.argv.slice(2));
}
