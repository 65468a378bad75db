/**
 * The Redoc page, built fresh and served by the reference server at `/docs`, read in headless Chromium the
 * way a newcomer reads it: the introduction, the decisions, every operation with its request and response
 * examples, the events of every event stream, what a reference decision's mark means, and the address it is
 * served from in its servers and code samples, with no error in the console and no request leaving 127.0.0.1.
 */
import { statSync } from 'node:fs';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDocsPage } from '../../scripts/lib/docs-page.ts';
import type { EventStreamFraming } from '../../scripts/lib/event-stream-docs.ts';
import { REFERENCE_WORDS } from '../../scripts/lib/reference-marks-docs.ts';
import { contract, type HeaderObject, type Operation, type ResponseObject, type SchemaObject } from '../../src/contract/index.ts';
import { artifactPath, launchBrowser, openLocalPage, type PageWatch } from '../helpers/browser.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let browser: Browser;
// One page for the whole file, as one reader clicks through the docs; every test starts from the sidebar.
let page: Page;
let watch: PageWatch;

/** A new reader of the docs: its own page, open at /docs once Redoc has taken over the server-rendered page. */
async function openDocs(): Promise<{ page: Page; watch: PageWatch }> {
  const opened = await openLocalPage(browser);
  await opened.page.goto(`${server.baseUrl}/docs`);
  // Redoc has taken over the server-rendered page once its search is ready.
  await opened.page.getByText('Ctrl+K').waitFor();
  return opened;
}

beforeAll(async () => {
  // The page the server serves, rebuilt from the current contract: the test never reads a stale one.
  buildDocsPage('dist/docs/index.html');
  server = await startServer();
  browser = await launchBrowser();
  ({ page, watch } = await openDocs());
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** No uncaught error, no console error (a script the page's policy blocks is one), every request on 127.0.0.1. */
function expectClean(seen: PageWatch = watch): void {
  expect(seen.pageErrors).toEqual([]);
  expect(seen.consoleErrors).toEqual([]);
  expect(seen.offsite).toEqual([]);
  expect(seen.requests).toContain(`${server.baseUrl}/docs`);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function sidebar(on: Page = page): Locator {
  return on.locator('[data-component-name="Menu/Menu"]');
}

/** A heading by its visible text (Redoc puts a link icon in each, so the accessible name is not enough). */
function heading(scope: Locator | Page, text: string): Locator {
  return scope.locator('h1, h2, h3, h4').filter({ hasText: new RegExp(`^\\s*${escapeRegExp(text)}\\s*$`) });
}

/** Opens an operation from the sidebar, as a reader does: its tag (unless already open), then its summary. */
async function openOperation(op: Operation, on: Page = page): Promise<Locator> {
  const link = sidebar(on).getByRole('link', { name: new RegExp(`^${escapeRegExp(op.summary)}`) });
  if (!(await link.isVisible())) await sidebar(on).getByRole('link', { name: op.tag, exact: true }).click();
  await link.click();
  // Redoc gives each operation's section an id ending in its lower-cased operationId.
  const section = on.locator(`[id$="/${op.operationId.toLowerCase()}"]`);
  await heading(section, op.summary).waitFor();
  return section;
}

/**
 * Chooses an item of the open dropdown menu with the keyboard, as a reader can. Redoc's menu is fixed-positioned
 * and follows its button: when the page still moves after the jump from the sidebar (a loaded machine), button
 * and menu can leave the viewport, where no click reaches a fixed element (seen once in CI); Enter works
 * wherever the menu is.
 */
async function chooseMenuItem(on: Page, name: string): Promise<void> {
  await on.getByRole('menuitem', { name, exact: true }).press('Enter');
}

/** The JSON a Redoc JSON viewer shows: its text is the JSON itself. */
async function shownJson(panel: Locator): Promise<unknown> {
  return JSON.parse((await panel.locator('[data-component-name="JsonViewer/JsonViewer"]').first().textContent()) ?? '');
}

/** The request samples panel of an operation: the one headed by its method and path. */
function requestSamples(section: Locator, op: Operation): Locator {
  return section
    .locator('[data-component-name="Panel/Panel"]')
    .filter({ hasText: new RegExp(`${op.method}\\s*${escapeRegExp(op.path)}(?!/)`, 'i') });
}

function successStatus(op: Operation): string {
  return Object.keys(op.responses).filter((s) => /^2\d\d$/.test(s)).sort()[0]!;
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
        const samples = requestSamples(section, op);
        // Request samples open on the operation's own code samples; "Payload" is the selected example itself.
        const language = samples.getByRole('button', { name: /^(curl|JavaScript|Node\.js|Python)$/ });
        if ((await language.count()) > 0) {
          await language.click();
          await chooseMenuItem(page, 'Payload');
        }
        expect(await shownJson(samples)).toEqual(request.value);
      }

      const status = successStatus(op);
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

describe('the docs page shows the address it is served from', () => {
  it('in the servers and code samples of an operation, never the built-in one', async () => {
    const [address, ...others] = (contract.spec.servers as Array<{ url: string; description: string }>).map((s) => s.url);
    const chat = contract.operations.find((op) => op.operationId === 'createChatCompletion')!;
    const section = await openOperation(chat);
    const samples = requestSamples(section, chat);
    // Whichever sample an earlier reader left open, the curl one.
    await samples.getByRole('button', { name: /^(curl|JavaScript|Node\.js|Python|Payload)$/ }).click();
    await chooseMenuItem(page, 'curl');
    await samples.getByText(`curl -s ${server.baseUrl}${chat.path}`).waitFor();

    await samples.getByRole('button', { name: new RegExp(`^${chat.method}\\s*${escapeRegExp(chat.path)}$`, 'i') }).click();
    await page.getByRole('menuitem', { name: `${server.baseUrl}${chat.path}` }).waitFor();
    for (const other of others) await page.getByRole('menuitem', { name: `${other}${chat.path}` }).waitFor();
    await page.keyboard.press('Escape');

    // Counted, so that a failure does not print megabytes of page.
    expect((await page.content()).split(address!).length - 1).toBe(0);
    expectClean();
  });
});

/** Whether a schema, or an `allOf` member of its own, carries the mark of a reference decision. */
function isMarked(schema: unknown): boolean {
  const resolved = contract.resolveSchema(schema) as SchemaObject & { 'x-conformance'?: string };
  return resolved['x-conformance'] === 'reference' || ((resolved.allOf ?? []) as SchemaObject[]).some((member) => member['x-conformance'] === 'reference');
}

/** The request fields and the response headers of an operation that carry the mark, as Redoc names their rows. */
function markedRows(op: Operation): Array<{ what: string; status?: string; selector: string }> {
  const body = contract.resolveSchema(op.raw.requestBody?.content['application/json']?.schema);
  const fields = Object.entries((body.properties ?? {}) as Record<string, unknown>)
    .filter(([, schema]) => isMarked(schema))
    .map(([name]) => ({ what: `field ${name}`, selector: `[id$="/t=request&path=${name}"]` }));
  const headers = Object.entries(op.responses).flatMap(([status, response]) =>
    Object.entries(contract.responseHeaders(contract.deref<ResponseObject>(response)))
      .filter(([, header]) => (header as HeaderObject & { 'x-conformance'?: string })['x-conformance'] === 'reference')
      .map(([name]) => ({ what: `${status} header ${name}`, status, selector: `[id*="/t=response&c=${status}&"][id$="&path=${name}"]` })),
  );
  return [...fields, ...headers];
}

describe('the docs page says what the mark of a reference decision means', () => {
  const said = new RegExp(`${escapeRegExp(REFERENCE_WORDS.bound)}|${escapeRegExp(REFERENCE_WORDS.choice)}`);

  it('marks fields and headers of several operations, so that the check below checks something', () => {
    expect(contract.operations.filter((op) => markedRows(op).length > 0).length).toBeGreaterThan(4);
  });

  it.each(contract.operations.map((op) => [op.operationId, op] as const))('%s: in words under each marked field and header, never as the bare extension', async (_id, op) => {
    const section = await openOperation(op);
    for (const row of markedRows(op)) {
      const shown = section.locator(row.selector).first();
      // Another response than the first is shown when its status is chosen.
      if (row.status && (await shown.count()) === 0) await section.locator('[id$="/responses"]').getByRole('tab', { name: row.status, exact: true }).click();
      // Polled: Redoc fills a row's description after the row itself (an empty text was read once in ~15 runs).
      await expect.poll(() => shown.innerText(), { message: row.what, timeout: 5000 }).toMatch(said);
    }
    // The bare extension reads "conformance: reference", as if the field were optional.
    expect(await section.innerText()).not.toMatch(/conformance:/i);
    expectClean();
  });
});

/** How the contract declares a streamed answer (see ChatCompletionEventStream.yaml). */
interface StreamSchema extends SchemaObject {
  description: string;
  contentSchema: SchemaObject;
  'x-event-stream'?: EventStreamFraming;
}

/** Every operation that can answer with an event stream, and that stream's schema. */
const streams = contract.operations.flatMap((op) => {
  const media = contract.deref<ResponseObject>(op.responses[successStatus(op)]!).content?.['text/event-stream'];
  return media ? [[op.operationId, op, contract.deref<StreamSchema>(media.schema)] as const] : [];
});

/** What one event's data can be: the variants of its schema (or the schema itself), each with its own fields. */
function dataVariants(stream: StreamSchema): SchemaObject[] {
  const data = contract.deref<SchemaObject>(stream.contentSchema);
  return Array.isArray(data.oneOf) ? data.oneOf.map((variant) => contract.deref<SchemaObject>(variant)) : [data];
}

describe('the docs page shows what each event of a stream holds', () => {
  // A reader of its own: choosing the stream's media type here leaves the examples of the other tests as they are.
  let reader: { page: Page; watch: PageWatch };
  beforeAll(async () => void (reader = await openDocs()));

  /** Opens an operation and shows its streamed answer, as a reader does with the body's media-type switcher. */
  async function openStream(op: Operation): Promise<Locator> {
    const section = await openOperation(op, reader.page);
    await section.locator(`[id$="/response&c=${successStatus(op)}/body"]`).getByRole('button').first().click();
    await chooseMenuItem(reader.page, 'text/event-stream');
    return section;
  }

  /** A field of one event, as the stream's body shows it. */
  function eventField(section: Locator, name: string): Locator {
    return section.locator(`[id$="&ct=text/event-stream&path=${name}"]`);
  }

  /** The choice between a field's variants: tabs when there are few, a menu when there are many. */
  async function variantNames(field: Locator): Promise<string[]> {
    const switcher = field.locator('[data-section-id="switcher"]').first();
    const tabs = switcher.getByRole('tab');
    if ((await tabs.count()) > 0) return tabs.allInnerTexts();
    await switcher.getByRole('button').click();
    // The menu opens apart from the field; its first item is the box that filters the others.
    const names = (await reader.page.getByRole('menuitem').allInnerTexts()).map((name) => name.trim()).filter(Boolean);
    await reader.page.keyboard.press('Escape');
    return names;
  }

  async function chooseVariant(field: Locator, name: string): Promise<void> {
    const switcher = field.locator('[data-section-id="switcher"]').first();
    const tab = switcher.getByRole('tab', { name, exact: true });
    if ((await tab.count()) > 0) return tab.click();
    await switcher.getByRole('button').click();
    await chooseMenuItem(reader.page, name);
  }

  /** Shows a field's own fields, which Redoc folds. */
  async function unfold(field: Locator): Promise<void> {
    const fold = field.getByRole('button', { name: /Show \d* ?propert/ }).first();
    if ((await fold.count()) > 0) await fold.click();
  }

  function fieldName(scope: Locator, name: string): Locator {
    return scope.locator('.schema-name').filter({ hasText: new RegExp(`^${escapeRegExp(name)}$`) });
  }

  it.each(streams)('renders the stream of %s: its grammar, and each event with its name and data', async (_id, op, stream) => {
    const section = await openStream(op);
    const framing = stream['x-event-stream'] ?? {};
    // The grammar, with the response (Markdown's code spans are plain text once rendered).
    await section.locator('p').filter({ hasText: stream.description.replaceAll('`', '').trim() }).waitFor();

    const data = eventField(section, 'data');
    await data.waitFor();
    const variants = dataVariants(stream);
    expect(await variantNames(data)).toEqual([...variants.map((v) => v.title), ...(framing.end ? [framing.end] : [])]);

    const event = eventField(section, 'event');
    if (framing.eventName) {
      // The event's name is its data's `type`: the names offered are the data variants' own.
      const first = (variants[0]!.properties as Record<string, { const: string }>)[framing.eventName]!.const;
      await event.getByText(`"${first}"`, { exact: true }).waitFor();
    } else {
      expect(await event.count()).toBe(0);
    }
    expectClean(reader.watch);
  });

  it('shows a chat completion chunk with its choices and their delta, and the [DONE] that ends the stream', async () => {
    const chat = contract.operations.find((op) => op.operationId === 'createChatCompletion')!;
    const section = await openStream(chat);
    const data = eventField(section, 'data');
    await chooseVariant(data, 'chat.completion.chunk');
    await unfold(data);
    await fieldName(data, 'choices').waitFor();
    await fieldName(data, 'delta').waitFor();

    await chooseVariant(data, '[DONE]');
    await data.getByText('data: [DONE]', { exact: true }).waitFor();
    await expect(fieldName(data, 'choices').isVisible()).resolves.toBe(false);
    expectClean(reader.watch);
  });

  it('shows an Anthropic stream event by its name, with that event’s own fields', async () => {
    const messages = contract.operations.find((op) => op.operationId === 'createMessage')!;
    const section = await openStream(messages);
    await eventField(section, 'event').getByText('"message_start"', { exact: true }).waitFor();
    const data = eventField(section, 'data');
    await chooseVariant(data, 'content_block_delta');
    await unfold(data);
    for (const name of ['type', 'index', 'delta']) await fieldName(data, name).filter({ visible: true }).first().waitFor();
    expectClean(reader.watch);
  });
});
