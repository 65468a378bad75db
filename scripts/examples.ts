/**
 * Writes the contract's example answers from the reference implementation's own answers, so that they
 * cannot drift from it (test/contract/examples-agree.test.ts checks that they have not):
 *
 * - the image answers: one example per documented size (the default size's first, as Prism answers the
 *   first), named `ImageResult<size>Example` so that a frontend asks the mock for one with
 *   `Prefer: example=ImageResult512x512Example`. Each holds a PNG of two flat colours of exactly that size,
 *   drawn here with sharp (a few hundred bytes; the reference's own pictures weigh kilobytes to megabytes);
 * - every other example that says which request gets it (`x-request`, see scripts/lib/example-answers.ts):
 *   its value becomes the reference's answer to that request, on the examples' clock, from a server in the
 *   state it names (ready, or busy). Where two answers to the same request differ (ids made at random), the
 *   example keeps its own values;
 * - the header examples Prism sends with an answer when nothing is asked (its default, the first example):
 *   the reference's headers with that answer. A header shared by operations whose answers differ in it is an
 *   error that says so: give each operation its own (as the billing headers are).
 *
 *   tsx scripts/examples.ts    bundles openapi/, asks the reference, writes openapi/, bundles again
 *
 * Summaries, descriptions and `x-request` are written by hand (the image examples' too, here); only values
 * are written by this script.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { parse, parseDocument, Scalar, stringify, visit, type Document } from 'yaml';
import type { Answer } from './lib/example-answers.ts';
import { root } from './lib/paths.ts';

const yamlOptions = { lineWidth: 0, flowCollectionPadding: false, doubleQuotedAsJSON: true } as const;
const examplesDir = join(root, 'openapi/components/examples');
const imageResultFile = join(root, 'openapi/components/responses/ImageResult.yaml');

function bundle(): void {
  execFileSync(process.execPath, ['--import', 'tsx', join(root, 'scripts/generate.ts')], { cwd: root, stdio: 'inherit' });
}

// ---------------------------------------------------------------------------------------------------------
// Pictures

/**
 * A sky over the sea, as a PNG of `width`×`height` in base64: two flat colours, so that it is a 1-bit
 * palette PNG of a few hundred bytes (1024×1024: under 600 characters of base64). The docs show a string
 * of up to 1,000 characters whole (Redoc folds longer ones), and the contract stays small.
 */
async function picture(width: number, height: number): Promise<string> {
  const pixels = Buffer.alloc(width * height * 3);
  const horizon = Math.round(height * 0.6);
  const [sky, sea] = [
    [246, 190, 148],
    [40, 88, 136],
  ];
  for (let y = 0; y < height; y++) {
    const colour = y < horizon ? sky! : sea!;
    for (let x = 0; x < width; x++) pixels.set(colour, (y * width + x) * 3);
  }
  const png = await sharp(pixels, { raw: { width, height, channels: 3 } })
    .png({ palette: true, colours: 2, dither: 0, compressionLevel: 9, effort: 10 })
    .toBuffer();
  return png.toString('base64');
}

// ---------------------------------------------------------------------------------------------------------
// The image examples: one per documented size

type ExampleAnswers = typeof import('./lib/example-answers.ts');

const imageExampleName = (size: string) => `ImageResult${size}Example`;

/** Writes the image examples' files (a first value included) and lists them in ImageResult.yaml. */
async function writeImageExamples(lib: ExampleAnswers): Promise<void> {
  const sizes = lib.documentedImageSizes();
  const edit = lib.editImageSizes();
  const defaultSize = sizes[0]!;
  const key = lib.imageExampleKey();

  for (const size of sizes) {
    const name = imageExampleName(size);
    const file = join(examplesDir, `${name}.yaml`);
    const [width, height] = size.split('x').map(Number) as [number, number];
    const others = size === defaultSize ? '' : ` The first example, ${defaultSize} (the default size), is the answer when nothing is asked.`;
    const generationOnly = edit.includes(size) ? '' : ` Generation only: an edit makes ${edit.join(' or ')}.`;
    const previous = existsSync(file) ? (parse(readFileSync(file, 'utf8')) as { value?: unknown }).value : undefined;
    const text = stringify(
      {
        summary: `One ${width}×${height} image (Prefer: example=${name})`,
        description:
          `The answer to a request for \`size\` ${size}: from the mock, ask for it with \`Prefer: example=${name}\`.${others}${generationOnly} ` +
          `The picture is two flat colours of exactly that size, to keep the contract small; the reference draws the prompt. ` +
          `Written by scripts/examples.ts.`,
        'x-request': { key, body: { size } },
        value: previous ?? { created: 0, data: [{ b64_json: await picture(width, height) }] },
      },
      yamlOptions,
    );
    writeIfChanged(file, text);
  }

  const names = new Set(sizes.map(imageExampleName));
  for (const file of readdirSync(examplesDir)) {
    const name = file.replace(/\.yaml$/, '');
    if (/^ImageResult.*Example$/.test(name) && !names.has(name)) {
      unlinkSync(join(examplesDir, file));
      console.log(`removed ${relative(root, join(examplesDir, file))}`);
    }
  }

  const doc = parseDocument(readFileSync(imageResultFile, 'utf8'));
  const refs = Object.fromEntries(sizes.map((size) => [imageExampleName(size), { $ref: `../examples/${imageExampleName(size)}.yaml` }]));
  doc.setIn(['content', 'application/json', 'examples'], doc.createNode(refs));
  writeIfChanged(imageResultFile, doc.toString(yamlOptions));
}

function writeIfChanged(file: string, text: string): boolean {
  if (existsSync(file) && readFileSync(file, 'utf8') === text) return false;
  writeFileSync(file, text);
  console.log(`wrote ${relative(root, file)}`);
  return true;
}

// ---------------------------------------------------------------------------------------------------------
// Where each example is written in openapi/

interface Location {
  file: string;
  /** The example object's place in the file. */
  path: Array<string | number>;
}

const methods = ['get', 'put', 'post', 'delete', 'patch'];

function readYaml(file: string): Record<string, unknown> {
  return parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
}

function follow(from: string, ref: string): string {
  if (ref.includes('#')) throw new Error(`${relative(root, from)}: only whole-file $refs are followed, not ${ref}`);
  return resolve(dirname(from), ref);
}

/**
 * Each response example's file and place, by `operationId status mediaType name`, and each response header's,
 * by `operationId status name` (the name in lower case).
 */
function exampleLocations(): { examples: Map<string, Location>; headers: Map<string, Location> } {
  const locations = new Map<string, Location>();
  const headerLocations = new Map<string, Location>();
  const rootFile = join(root, 'openapi/openapi.yaml');
  const paths = readYaml(rootFile).paths as Record<string, { $ref?: string }>;
  for (const item of Object.values(paths)) {
    const pathFile = item.$ref ? follow(rootFile, item.$ref) : rootFile;
    const pathItem = item.$ref ? readYaml(pathFile) : (item as Record<string, unknown>);
    for (const method of methods) {
      const op = pathItem[method] as { operationId: string; responses: Record<string, Record<string, unknown>> } | undefined;
      if (!op) continue;
      for (const [status, inline] of Object.entries(op.responses)) {
        let file = pathFile;
        let at: Array<string | number> = [method, 'responses', status];
        let response = inline;
        if (typeof inline.$ref === 'string') {
          file = follow(pathFile, inline.$ref);
          at = [];
          response = readYaml(file);
        }
        for (const [name, header] of Object.entries((response.headers ?? {}) as Record<string, { $ref?: string }>)) {
          const location = header.$ref ? { file: follow(file, header.$ref), path: [] } : { file, path: [...at, 'headers', name] };
          headerLocations.set(`${op.operationId} ${status} ${name.toLowerCase()}`, location);
        }
        const content = (response.content ?? {}) as Record<string, { examples?: Record<string, { $ref?: string }> }>;
        for (const [mediaType, media] of Object.entries(content)) {
          for (const [name, example] of Object.entries(media.examples ?? {})) {
            const location = example.$ref ? { file: follow(file, example.$ref), path: [] } : { file, path: [...at, 'content', mediaType, 'examples', name] };
            locations.set(`${op.operationId} ${status} ${mediaType} ${name}`, location);
          }
        }
      }
    }
  }
  return { examples: locations, headers: headerLocations };
}

/** A JSON value's node with its multi-line strings as JSON strings ("a\nb"), as the examples write them. */
function multiLineQuoted<T>(node: T): T {
  visit(node as Parameters<typeof visit>[0], {
    Scalar(_, scalar) {
      if (typeof scalar.value === 'string' && scalar.value.includes('\n')) scalar.type = Scalar.QUOTE_DOUBLE;
    },
  });
  return node;
}

// ---------------------------------------------------------------------------------------------------------

// The contract module reads the bundle once, when first imported: the image examples are written from a
// fresh bundle, then the answers in a second process, which reads the bundle that lists them.
if (!process.argv.includes('--answers')) {
  bundle();
  await writeImageExamples(await import('./lib/example-answers.ts'));
  bundle();
  execFileSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--answers'], { cwd: root, stdio: 'inherit' });
  process.exit(0);
}

const { exampleCases, exampleClock, exampleServerOptions, serverOf, answerOf, volatilePaths, asExample, exampleBody, formatEvents, caseLabel, isPrismDefault, exampleHeaders, headerExample } =
  await import('./lib/example-answers.ts');
type ExampleServer = import('./lib/example-answers.ts').ExampleServer;
const { buildApp } = await import('../src/server/app.ts');

const clock = exampleClock();
// Two servers in each state: where their answers to the same request differ, the value is made at random.
const servers = {} as Record<ExampleServer, Array<{ app: Awaited<ReturnType<typeof buildApp>>; baseUrl: string }>>;
for (const [state, options] of Object.entries(exampleServerOptions) as Array<[ExampleServer, object]>) {
  servers[state] = await Promise.all(
    [0, 1].map(async () => {
      const app = await buildApp({ store: 'memory', logger: false, now: () => clock, ...options });
      await app.listen({ host: '127.0.0.1', port: 0 });
      const address = app.server.address();
      if (!address || typeof address === 'string') throw new Error('server has no port');
      return { app, baseUrl: `http://127.0.0.1:${address.port}` };
    }),
  );
}

const locations = exampleLocations();
const documents = new Map<string, Document>();
const done = new Set<string>();
const changed = new Set<string>();
/** The header examples written, by place, with the example that decided each. */
const headersWritten = new Map<string, { value: unknown; by: string }>();

function documentOf(file: string): Document {
  let doc = documents.get(file);
  if (!doc) documents.set(file, (doc = parseDocument(readFileSync(file, 'utf8'))));
  return doc;
}

/** Writes the header examples of the default answer `c` from the reference's `answer`. */
function writeHeaderExamples(c: Parameters<typeof exampleHeaders>[0], answer: Answer): void {
  for (const [name, header] of exampleHeaders(c)) {
    const value = headerExample(name, header, answer);
    if (value === undefined) continue;
    const location = locations.headers.get(`${c.operation.operationId} ${c.status} ${name}`);
    if (!location) throw new Error(`${caseLabel(c)}: header ${name} not found in openapi/`);
    const place = `${relative(root, location.file)}${location.path.length > 0 ? `#/${location.path.join('/')}` : ''}`;
    const earlier = headersWritten.get(place);
    if (earlier && earlier.value !== value) {
      throw new Error(`${place} is the header ${name} of ${earlier.by} (${earlier.value}) and of ${caseLabel(c)} (${value}): give each operation its own`);
    }
    headersWritten.set(place, { value, by: caseLabel(c) });
    if (header.example === value) continue;
    documentOf(location.file).setIn([...location.path, 'example'], value);
    changed.add(location.file);
    console.log(`${caseLabel(c)}: header ${name} now the reference's`);
  }
}

try {
  for (const c of exampleCases()) {
    if (!c.request || c.notAnswered) continue;
    const location = locations.examples.get(`${c.operation.operationId} ${c.status} ${c.mediaType} ${c.name}`);
    if (!location) throw new Error(`${caseLabel(c)}: not found in openapi/`);
    const key = `${location.file} ${location.path.join('/')}`;
    const writesHeaders = isPrismDefault(c);
    if (done.has(key) && !writesHeaders) continue;

    const [first, second] = (await Promise.all(servers[serverOf(c)].map((s) => answerOf(s.baseUrl, c)))) as [Answer, Answer];
    if (first.status !== Number(c.status)) {
      throw new Error(`${caseLabel(c)}: the reference answers its x-request with ${first.status}, not ${c.status}: ${JSON.stringify(first.body).slice(0, 300)}`);
    }
    if (writesHeaders) writeHeaderExamples(c, first);
    if (done.has(key)) continue;
    done.add(key);
    const answer = await asExample(first.body, volatilePaths(first.body, second.body), exampleBody(c), picture);
    const value = c.mediaType === 'text/event-stream' ? formatEvents(answer as Parameters<typeof formatEvents>[0]) : answer;
    if (JSON.stringify(value) === JSON.stringify(c.value)) continue;

    const doc = documentOf(location.file);
    const node = typeof value === 'string' ? Object.assign(new Scalar(value), { type: Scalar.BLOCK_LITERAL }) : multiLineQuoted(doc.createNode(value));
    doc.setIn([...location.path, 'value'], node);
    changed.add(location.file);
    console.log(`${caseLabel(c)}: now the reference's answer`);
  }
} finally {
  await Promise.all(Object.values(servers).flat().map((s) => s.app.close()));
}

for (const file of changed) writeIfChanged(file, documents.get(file)!.toString(yamlOptions));
if (changed.size > 0) bundle();
console.log(changed.size > 0 ? `${changed.size} files of openapi/ rewritten` : 'every example already is the reference\'s answer');
