/**
 * The Redoc page, built fresh and served by the reference server at `/docs`, read in headless Chromium the
 * way a newcomer reads it: the introduction, the decisions, and every operation with its request and
 * response examples, with no error in the console and no request leaving 127.0.0.1.
 */
import { statSync } from 'node:fs';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDocsPage } from '../../scripts/lib/docs-page.ts';
import { contract, type Operation, type ResponseObject } from '../../src/contract/index.ts';
import { artifactPath, launchBrowser, openLocalPage, type PageWatch } from '../helpers/browser.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let browser: Browser;
// One page for the whole file, as one reader clicks through the docs; every test starts from the sidebar.
let page: Page;
let watch: PageWatch;

beforeAll(async () => {
  // The page the server serves, rebuilt from the current contract: the test never reads a stale one.
  buildDocsPage('dist/docs/index.html');
  server = await startServer();
  browser = await launchBrowser();
  ({ page, watch } = await openLocalPage(browser));
  await page.goto(`${server.baseUrl}/docs`);
  // Redoc has taken over the server-rendered page once its search is ready.
  await page.getByText('Ctrl+K').waitFor();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** No uncaught error, no console error, and every request stayed on 127.0.0.1. */
function expectClean(): void {
  expect(watch.pageErrors).toEqual([]);
  expect(watch.consoleErrors).toEqual([]);
  expect(watch.offsite).toEqual([]);
  expect(watch.requests).toContain(`${server.baseUrl}/docs`);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function sidebar(): Locator {
  return page.locator('[data-component-name="Menu/Menu"]');
}

/** A heading by its visible text (Redoc puts a link icon in each, so the accessible name is not enough). */
function heading(scope: Locator | Page, text: string): Locator {
  return scope.locator('h1, h2, h3, h4').filter({ hasText: new RegExp(`^\\s*${escapeRegExp(text)}\\s*$`) });
}

/** Opens an operation from the sidebar, as a reader does: its tag (unless already open), then its summary. */
async function openOperation(op: Operation): Promise<Locator> {
  const link = sidebar().getByRole('link', { name: new RegExp(`^${escapeRegExp(op.summary)}`) });
  if (!(await link.isVisible())) await sidebar().getByRole('link', { name: op.tag, exact: true }).click();
  await link.click();
  // Redoc gives each operation's section an id ending in its lower-cased operationId.
  const section = page.locator(`[id$="/${op.operationId.toLowerCase()}"]`);
  await heading(section, op.summary).waitFor();
  return section;
}

/** The JSON a Redoc JSON viewer shows: its text is the JSON itself. */
async function shownJson(panel: Locator): Promise<unknown> {
  return JSON.parse((await panel.locator('[data-component-name="JsonViewer/JsonViewer"]').first().textContent()) ?? '');
}

function firstExample(examples: Record<string, unknown> | undefined): { value: unknown } | undefined {
  const first = Object.values(examples ?? {})[0];
  return first === undefined ? undefined : contract.deref<{ value: unknown }>(first as { value: unknown });
}

describe('the docs page at /docs', () => {
  it('opens on the introduction, lists every tag, and fetches nothing from elsewhere', async () => {
    await expect(page.title()).resolves.toBe(contract.spec.info.title);
    await sidebar().getByRole('link', { name: contract.spec.info.title, exact: true }).click();
    for (const text of ['Getting started', 'Streaming', 'Errors']) await heading(page, text).waitFor();
    for (const tag of new Set(contract.operations.map((op) => op.tag))) {
      await sidebar().getByRole('link', { name: tag, exact: true }).waitFor();
    }
    expectClean();
  });

  it('shows every decision of the introduction in the decisions section', async () => {
    await sidebar().getByRole('link', { name: 'Decisions where the specification is silent' }).click();
    await heading(page, 'Decisions where the specification is silent').waitFor();
    const documented = [...(contract.spec.info.description ?? '').matchAll(/^\| (D\d+) \|/gm)].map((m) => m[1]);
    expect(documented.length).toBeGreaterThan(0);
    const firstCells = await page.locator('table tr td:first-child').allInnerTexts();
    expect(firstCells.map((cell) => cell.trim()).filter((cell) => /^D\d+$/.test(cell))).toEqual(documented);
    expectClean();
  });

  it.each(contract.operations.map((op) => [op.operationId, op] as const))(
    'renders %s with its first request and response examples',
    async (_operationId, op) => {
      const section = await openOperation(op);
      const panels = section.locator('[data-component-name="Panel/Panel"]');

      const request = firstExample(op.raw.requestBody?.content['application/json']?.examples);
      if (request) {
        const samples = panels.filter({ hasText: new RegExp(`${op.method}\\s*${escapeRegExp(op.path)}(?!/)`, 'i') });
        // Request samples open on the operation's own code samples; "Payload" is the selected example itself.
        const language = samples.getByRole('button', { name: /^(curl|JavaScript|Node\.js|Python)$/ });
        if ((await language.count()) > 0) {
          await language.click();
          await page.getByRole('menuitem', { name: 'Payload' }).click();
        }
        expect(await shownJson(samples)).toEqual(request.value);
      }

      const status = Object.keys(op.responses).filter((s) => /^2\d\d$/.test(s)).sort()[0]!;
      const answers = panels.filter({ hasText: /^Response/ });
      const response = firstExample(contract.deref<ResponseObject>(op.responses[status]!).content?.['application/json']?.examples);
      if (response) expect(await shownJson(answers)).toEqual(response.value);
      else await answers.getByText('No content').waitFor();
      expectClean();
    },
  );

  it('draws the Redocly attribution from the page itself', async () => {
    const logo = page.locator('img[alt="redocly logo"]');
    await logo.waitFor();
    expect(await logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    expectClean();
  });

  it('keeps its address under /docs as a reader clicks, and saves a screenshot of an operation', async () => {
    const chat = contract.operations.find((op) => op.operationId === 'createChatCompletion')!;
    const section = await openOperation(chat);
    expect(page.url()).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/docs#/);
    await heading(section, chat.summary).scrollIntoViewIfNeeded();
    const file = artifactPath('docs.png');
    await page.screenshot({ path: file });
    expect(statSync(file).size).toBeGreaterThan(20_000);
    expectClean();
  });
});
