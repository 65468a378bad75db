/**
 * Files of the package that are not modules (the bundled contract in `generated/`, the docs page in
 * `dist/docs/`, the dashboard's `public/` folder), found from the package's root: the folder with
 * `package.json` above this module. The sources run as they are under tsx (tests, scripts) and compiled
 * to `dist/node/` by `npm run build:server` (`npm start`), so a path relative to a module would differ
 * between the two.
 */
import { existsSync } from 'node:fs';

function findRoot(start: URL): URL {
  for (let dir = new URL('./', start); ; ) {
    if (existsSync(new URL('package.json', dir))) return dir;
    const parent = new URL('../', dir);
    if (parent.href === dir.href) throw new Error(`no package.json above ${start.href}`);
    dir = parent;
  }
}

const root = findRoot(new URL(import.meta.url));

/**
 * The URL of a file of the package, from its path relative to the root.
 *
 * @example
 * readFileSync(packageFile('generated/openapi.json'), 'utf8');
 */
export function packageFile(path: string): URL {
  return new URL(path, root);
}

