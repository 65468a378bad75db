/**
 * The descriptions a server can be checked against (`--contract`): this gateway's contract, and OpenAI's and
 * Anthropic's protocols as openapi/openai/ and openapi/anthropic/ describe them. Each is loaded, and its
 * validators compiled, only when first asked for.
 */
import { packageFile } from '../package-root.ts';
import { Contract } from './contract.ts';
import { contract as gateway } from './gateway.ts';

export const contractNames = ['gateway', 'openai', 'anthropic'] as const;
export type ContractName = (typeof contractNames)[number];

const loaded = new Map<ContractName, Contract>([['gateway', gateway]]);

export function isContractName(value: string): value is ContractName {
  return (contractNames as readonly string[]).includes(value);
}

/**
 * @example
 * const openai = loadContract('openai');
 * openai.protocol?.rule('error-object')?.url; // 'https://platform.openai.com/docs/guides/error-codes'
 */
export function loadContract(name: ContractName): Contract {
  let found = loaded.get(name);
  if (!found) {
    found = new Contract(name, packageFile(`generated/${name}/openapi.json`));
    loaded.set(name, found);
  }
  return found;
}
