/** A run's context without a server, for tests of the suite's parts: a contract, a profile, keys and a catalogue. */
import { loadContract, type ContractName } from '../../../src/contract/index.ts';
import { Catalogue } from '../../../src/conformance/catalogue.ts';
import type { RunContext } from '../../../src/conformance/check.ts';
import { ImageLedger } from '../../../src/conformance/image-ledger.ts';
import { Credentials, KeyRing } from '../../../src/conformance/keys.ts';
import { profiles, type ProfileName } from '../../../src/conformance/profiles.ts';
import { imageOperations } from '../../../src/conformance/scope.ts';
import { createCatalogue } from '../../../src/server/catalogue/catalogue.ts';

const { models } = createCatalogue();

export function contextFor(name: ContractName = 'gateway', profile: ProfileName = 'full', overrides: Partial<RunContext> = {}): RunContext {
  const contract = loadContract(name);
  return {
    baseUrl: 'http://127.0.0.1:1',
    profile: profiles[profile],
    keys: name === 'gateway' ? new KeyRing({ starter: 'sk-a', pro: 'sk-b' }) : new KeyRing({}, ['sk-a', 'sk-b']),
    seed: 1,
    catalogue: Catalogue.fromListing({ models }, imageOperations(contract).map((op) => op.path)),
    ledger: new ImageLedger(),
    timeoutMs: 1,
    contract,
    protocol: contract.protocol!,
    credentials: new Credentials(contract),
    headers: {},
    ...overrides,
  };
}
