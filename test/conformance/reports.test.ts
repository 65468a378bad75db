/** The three reports of a run: console text, JUnit XML and JSON, each with failures explained and keys masked. */
import { describe, expect, it } from 'vitest';
import { formatProgress, formatReport } from '../../src/conformance/report/console.ts';
import { toJson } from '../../src/conformance/report/json.ts';
import { toHtml } from '../../src/conformance/report/html.ts';
import { toJunit } from '../../src/conformance/report/junit.ts';
import type { Report } from '../../src/conformance/results.ts';

const report: Report = {
  baseUrl: 'http://127.0.0.1:8080',
  contracts: ['gateway'],
  waivers: [],
  profile: 'full',
  destructive: false,
  seed: 1,
  startedAt: '2026-01-01T00:00:00.000Z',
  durationMs: 1234,
  summary: { passed: 1, failed: 1, skipped: 1, waived: 0, requests: 2 },
  results: [
    { id: 'listModels/auth/no-key', contract: 'gateway', operationId: 'listModels', family: 'auth', title: 'no key → success', outcome: 'passed', violations: [], requests: 1, durationMs: 3 },
    {
      id: 'createChatCompletion/auth/no-key', contract: 'gateway', operationId: 'createChatCompletion', family: 'auth', title: 'no key → 401 <Invalid API Key.>',
      outcome: 'failed', requests: 1, durationMs: 5,
      violations: [{
        message: 'without a key: expected status 401, got 200',
        rule: 'specification: Authentication',
        exchange: {
          request: { method: 'POST', url: 'http://127.0.0.1:8080/v1/chat/completions', headers: { 'x-api-key': 'sk-demo-ultimate', authorization: 'Bearer sk-secret-value' }, body: '{"model":"m"}', bodyBytes: 13 },
          response: { status: 200, headers: { 'content-type': 'application/json', date: 'today', 'x-gateway-multiplier': '0.5' }, contentType: 'application/json', text: `{"content":"${'x'.repeat(5000)}"}`, json: {} },
          durationMs: 2,
        },
      }],
    },
    { id: 'createImage/quota/starter', contract: 'gateway', operationId: 'createImage', family: 'quota', title: 'quota', outcome: 'skipped', reason: 'run with --destructive', violations: [], requests: 0, durationMs: 0 },
  ],
};

describe('console report', () => {
  const text = formatReport(report);

  it('groups by operation and explains each failure: message, rule, request and answer', () => {
    expect(text).toMatch(/listModels \(1 check\)\n {2}✓ no key → success \[listModels\/auth\/no-key\]/);
    expect(text).toContain('createChatCompletion (1 check, 1 failed)');
    expect(text).toContain('without a key: expected status 401, got 200');
    expect(text).toContain('rule: specification: Authentication');
    expect(text).toContain('→ POST http://127.0.0.1:8080/v1/chat/completions');
    expect(text).toContain('← 200 application/json');
    expect(text).toContain('x-gateway-multiplier: 0.5');
    expect(text).not.toContain('date: today');
    expect(text).toContain('more characters)');
    expect(text).toContain('- quota [createImage/quota/starter] (skipped: run with --destructive)');
    expect(text).toContain('Skipped\n  1 check: run with --destructive → pass --destructive, with keys whose quota is fresh today');
    expect(text).toContain('1 passed, 1 failed, 1 skipped — 2 requests in 1.2 s');
  });

  it('masks keys', () => {
    expect(text).toContain('x-api-key: sk-demo…');
    expect(text).toContain('authorization: Bearer sk-secr…');
    expect(text).not.toContain('sk-demo-ultimate');
    expect(text).not.toContain('sk-secret-value');
  });

  it('prints one progress line per check', () => {
    expect(formatProgress(0, 12, report.results[1]!)).toBe('[ 1/12] ✗ createChatCompletion/auth/no-key › no key → 401 <Invalid API Key.>');
  });
});

describe('JUnit report', () => {
  const xml = toJunit(report);

  it('has one suite per operation and one case per check', () => {
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="gateway-conformance gateway \(full\) http:\/\/127.0.0.1:8080" tests="3" failures="1" skipped="1"/);
    expect(xml.match(/<testsuite /g)).toHaveLength(3);
    expect(xml).toContain('<testcase classname="conformance.createChatCompletion" name="createChatCompletion/auth/no-key: no key → 401 &lt;Invalid API Key.&gt;"');
    expect(xml).toContain('<failure message="without a key: expected status 401, got 200" type="specification: Authentication">');
    expect(xml).toContain('<skipped message="run with --destructive"/>');
    expect(xml).not.toContain('sk-demo-ultimate');
  });
});

describe('JSON report', () => {
  it('is the report with keys masked and bodies cut', () => {
    const json = JSON.parse(toJson(report));
    expect(json.summary).toEqual(report.summary);
    const exchange = json.results[1].violations[0].exchange;
    expect(exchange.request.headers['x-api-key']).toBe('sk-demo…');
    expect(exchange.response.body.length).toBeLessThan(2100);
    expect(JSON.stringify(json)).not.toContain('sk-demo-ultimate');
  });
});

describe('HTML report', () => {
  const html = toHtml(report);

  it('is one page that needs nothing else: no script, no stylesheet or image to fetch', () => {
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).not.toMatch(/<script|<link|<img|src=/i);
  });

  it('gives the verdict, then the failures first, each with its id, rule, exchange and docs link', () => {
    expect(html).toContain('✗ 1 failed — 1 passed, 1 failed, 1 skipped');
    const failures = html.indexOf('<h2>Failures</h2>');
    expect(failures).toBeGreaterThan(0);
    expect(failures).toBeLessThan(html.indexOf('<h2>Skipped</h2>'));
    expect(html.indexOf('<h2>Skipped</h2>')).toBeLessThan(html.indexOf('<h2>Passed</h2>'));
    expect(html).toContain('<code>createChatCompletion/auth/no-key</code>');
    expect(html).toContain('rule: <code>specification: Authentication</code>');
    expect(html).toContain('href="http://127.0.0.1:8080/docs#operation/createChatCompletion"');
    expect(html).toContain('no key → 401 &#60;Invalid API Key.&#62;');
    expect(html).toContain('sk-demo…');
    expect(html).not.toContain('sk-demo-ultimate');
    expect(html).toContain('— run with --destructive');
  });
});

describe('a run against a vendor protocol, with a waiver', () => {
  const exchange = report.results[1]!.violations[0]!.exchange!;
  const vendor: Report = {
    ...report,
    contracts: ['openai'],
    waivers: ['openai/error-object'],
    summary: { passed: 0, failed: 1, skipped: 0, waived: 1, requests: 2 },
    results: [
      {
        id: 'openai:createChatCompletion/auth/no-key', contract: 'openai', operationId: 'createChatCompletion', family: 'auth', title: 'no key → 401',
        docs: 'https://platform.openai.com/docs/api-reference/chat/create', outcome: 'waived', requests: 1, durationMs: 1,
        violations: [{ message: "body: /error must be object", rule: 'Errors are {"error": {…}}', ruleId: 'openai/error-object', url: 'https://platform.openai.com/docs/guides/error-codes', waived: true, exchange }],
      },
      {
        id: 'openai:createChatCompletion/behaviour/temperature-bounds', contract: 'openai', operationId: 'createChatCompletion', family: 'behaviour', title: 'temperature bounds',
        docs: 'https://platform.openai.com/docs/api-reference/chat/create', outcome: 'failed', requests: 1, durationMs: 1,
        violations: [{ message: 'temperature 2.1: expected status 400, got 200', rule: '`temperature` lies between 0 and 2', ruleId: 'openai/sampling-bounds', url: 'https://platform.openai.com/docs/api-reference/chat/create', exchange }],
      },
    ],
  };

  it('names the contract, the rule id and the vendor page of a failure, and a waived deviation apart', () => {
    const text = formatReport(vendor);
    expect(text).toMatch(/^Conformance of http:\/\/127.0.0.1:8080 to openai — profile full, seed 1, waived: openai\/error-object/);
    expect(text).toMatch(/openai:createChatCompletion \(2 checks, 1 failed\)/);
    expect(text).toContain('~ no key → 401 [openai:createChatCompletion/auth/no-key] (waived: openai/error-object)');
    expect(text).toContain('rule: openai/sampling-bounds — `temperature` lies between 0 and 2 (https://platform.openai.com/docs/api-reference/chat/create)');
    expect(text).toContain('0 passed, 1 failed, 0 skipped, 1 waived');
    const xml = toJunit(vendor);
    expect(xml).toContain('<failure message="temperature 2.1: expected status 400, got 200" type="openai/sampling-bounds">');
    expect(xml).toMatch(/<system-out>waived \(openai\/error-object\): body: \/error must be object<\/system-out>/);
    expect(xml).toMatch(/tests="2" failures="1" skipped="0"/);
    const html = toHtml(vendor);
    expect(html).toContain('<h2>Waived deviations</h2>');
    expect(html).toContain('href="https://platform.openai.com/docs/api-reference/chat/create">openai:createChatCompletion in the docs</a>');
    expect(html).toContain('<code>openai/sampling-bounds</code> — ');
    expect(JSON.parse(toJson(vendor)).results[0].violations[0]).toMatchObject({ ruleId: 'openai/error-object', waived: true });
  });
});
