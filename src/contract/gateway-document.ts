/**
 * The public contract's document alone (`generated/openapi.json`), parsed once, without the validators a
 * `Contract` compiles. For code that needs the contract's numbers and schemas but validates nothing against
 * it: the engines, whose worker threads would otherwise each compile the whole contract (about 17 MB of
 * memory per thread). Import it from this file, not from `index.ts`, which loads the `Contract` as well.
 */
import { packageFile } from '../package-root.ts';
import { readDocument } from './document.ts';

export const gatewayDocument = readDocument(packageFile('generated/openapi.json'));
