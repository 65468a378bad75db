// docs/conformance-coverage.md stays true: every check id or pattern it cites names a check of the suite,
// every check of the suite (against each of its contracts) is cited, every decision of the contract has its
// row, and every rule a vendor protocol's description states has its row, with the vendor's page.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { contractNames, loadContract } from '../../src/contract/index.ts';
import { listChecks } from '../../src/conformance/run.ts';
import { root } from '../examples/run.ts';

const doc = readFileSync(`${root}docs/conformance-coverage.md`, 'utf8');
const introduction = readFileSync(`${root}openapi/docs/introduction.md`, 'utf8');
const ids = listChecks([...contractNames]).map((c) => c.id);
/** Rule ids (`openai/error-object`): cited in the document, but not checks. */
const ruleIds = new Set(contractNames.flatMap((name) => loadContract(name).protocol!.rules().map((r) => r.id)));

/** The check ids and patterns the document cites: code spans that look like `operation/family/…`, maybe after `contract:`. */
const cited = [...new Set([...doc.matchAll(/`([A-Za-z*][\w*:-]*\/[\w*-]+(?:\/[^`\s]*)?)`/g)].map((m) => m[1]!))]
  .filter((c) => !c.startsWith('test/') && !c.startsWith('v1/') && !c.startsWith('openapi/') && !ruleIds.has(c));

function pattern(glob: string): RegExp {
  return new RegExp(`^${glob.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
}

describe('docs/conformance-coverage.md', () => {
  it('cites only checks that exist', () => {
    expect(cited.length).toBeGreaterThan(50);
    const unknown = cited.filter((c) => !ids.some((id) => pattern(c).test(id)));
    expect(unknown).toEqual([]);
  });

  it('cites every check of the suite', () => {
    const missing = ids.filter((id) => !cited.some((c) => pattern(c).test(id)));
    expect(missing).toEqual([]);
  });

  it("has a row for every rule of the vendors' descriptions, citing the vendor's page the description names", () => {
    for (const name of ['openai', 'anthropic'] as const) {
      for (const rule of loadContract(name).protocol!.rules()) {
        expect(doc, rule.id).toMatch(new RegExp(`^\\| \`${rule.id}\` \\| <${rule.url!.replace(/[.?]/g, '\\$&')}> \\| \\S`, 'm'));
      }
    }
  });

  it('has a row for every decision of the contract', () => {
    const decisions = [...introduction.matchAll(/^\| (D\d+) \|/gm)].map((m) => m[1]!);
    expect(decisions.length).toBeGreaterThan(25);
    for (const d of decisions) expect(doc, d).toMatch(new RegExp(`^\\| ${d} `, 'm'));
  });
});
