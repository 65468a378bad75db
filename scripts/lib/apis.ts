/**
 * The OpenAPI descriptions of the project, as `redocly.yaml` lists them (`apis: name@v1: root: …`): the
 * public contract (`gateway`) and the reference implementation's admin API (`admin`). Each is bundled into
 * its own folder of `generated/`: the contract into `generated/` itself, the others into `generated/<name>/`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { root } from './paths.ts';

export interface ApiDescription {
  /** The name before `@` in redocly.yaml. */
  name: string;
  /** The root file of its source, relative to the project. */
  source: string;
  /** Where its bundle (`openapi.json`) and types (`schema.d.ts`) are written, relative to the project. */
  generated: string;
  /** Where its Redoc page is written, relative to the project. */
  docs: string;
}

/** The public contract's name in redocly.yaml. */
export const CONTRACT = 'gateway';

export function apiDescriptions(): ApiDescription[] {
  const config = parse(readFileSync(join(root, 'redocly.yaml'), 'utf8')) as { apis: Record<string, { root: string }> };
  return Object.entries(config.apis).map(([id, api]) => {
    const name = id.split('@')[0]!;
    const contract = name === CONTRACT;
    return {
      name,
      source: api.root,
      generated: contract ? 'generated' : `generated/${name}`,
      docs: contract ? 'dist/docs/index.html' : `dist/docs/${name}.html`,
    };
  });
}
