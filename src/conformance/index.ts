/** The suite as a library: what `ai-gateway-conformance` exports beside its command. */
export { listChecks, runConformance, UnreachableError, UsageError, type ConformanceOptions, type ListedCheck } from './run.ts';
export type { CheckResult, Report } from './results.ts';
export { toJunit } from './report/junit.ts';
export { toJson } from './report/json.ts';
export { toHtml } from './report/html.ts';
export { formatReport } from './report/console.ts';
