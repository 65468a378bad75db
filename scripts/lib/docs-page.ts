/**
 * Builds the Redoc page of the contract: one self-contained HTML file (Redoc's script inlined) that fetches
 * nothing from anywhere, so it works offline, from the file system and behind the reference server's `/docs`.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { documentEventStreams } from './event-stream-docs.ts';
import { documentReferenceMarks } from './reference-marks-docs.ts';
import { bin, root } from './paths.ts';

/**
 * Redoc 3 loads the logo of its "API docs by Redocly" footer from cdn.redoc.ly when the page opens. The
 * same attribution, drawn here, keeps the page from reaching out (and from logging a failed load offline).
 */
const cdnLogos: Record<string, string> = {
  'https://cdn.redoc.ly/redoc/logo-mini-full.svg': svg(
    58,
    '<text x="0" y="11.5" font-family="system-ui,sans-serif" font-size="12" font-weight="600" fill="#5b6270">Redocly</text>',
  ),
  'https://cdn.redoc.ly/redoc/logo-mini.svg': svg(
    14,
    '<rect width="14" height="14" rx="3" fill="#5b6270"/><text x="3.5" y="11" font-family="system-ui,sans-serif" font-size="10" font-weight="700" fill="#fff">R</text>',
  ),
};

function svg(width: number, body: string): string {
  const markup = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="14" viewBox="0 0 ${width} 14">${body}</svg>`;
  // Percent-encoded, so the URL is safe inside the bundle's JavaScript strings and template literals.
  return `data:image/svg+xml,${encodeURIComponent(markup)}`;
}

/**
 * The page with every resource Redoc would fetch from a CDN replaced by an inline one.
 *
 * @example
 *   writeFileSync(output, offlinePage(readFileSync(built, 'utf8')));
 */
export function offlinePage(html: string): string {
  let page = html;
  for (const [url, inline] of Object.entries(cdnLogos)) page = page.replaceAll(url, inline);
  return page;
}

/**
 * Renders a bundled description (the contract's `generated/openapi.json` by default) with `redocly
 * build-docs` (options from redocly.yaml) into `output`, made offline. What is rendered is a copy of the
 * bundle with its event streams and its reference marks in their documentation form (event-stream-docs.ts,
 * reference-marks-docs.ts); the bundle stays the contract. The file is replaced at once, so a server reading it never sees half a page.
 *
 * @example
 *   buildDocsPage('dist/docs/index.html');
 *   buildDocsPage('dist/docs/admin.html', 'generated/admin/openapi.json');
 */
export function buildDocsPage(output = 'dist/docs/index.html', bundle = 'generated/openapi.json'): string {
  const target = resolve(root, output);
  const dir = mkdtempSync(join(tmpdir(), 'gateway-docs-'));
  try {
    const built = join(dir, 'index.html');
    const rendered = join(dir, 'openapi.json');
    writeFileSync(rendered, JSON.stringify(documentReferenceMarks(documentEventStreams(JSON.parse(readFileSync(resolve(root, bundle), 'utf8'))))));
    execFileSync(bin('redocly'), ['build-docs', rendered, '--inlineBundle', '--output', built], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    mkdirSync(dirname(target), { recursive: true });
    const staged = `${target}.${process.pid}.tmp`;
    writeFileSync(staged, offlinePage(readFileSync(built, 'utf8')));
    renameSync(staged, target);
    return target;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
