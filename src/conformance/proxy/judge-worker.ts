/**
 * The proxy's judge, in a thread of its own: checking a long stream against its grammar takes milliseconds,
 * which the thread that forwards bytes must not spend. It loads the contracts it is given once, then judges
 * each exchange it receives and sends back what it found, as plain data.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { loadContract, type ContractName } from '../../contract/index.ts';
import { Catalogue } from '../catalogue.ts';
import type { RunContext } from '../check.ts';
import { ImageLedger } from '../image-ledger.ts';
import { Credentials, KeyRing } from '../keys.ts';
import { profiles, type ProfileName } from '../profiles.ts';
import type { Passed } from './forward.ts';
import { Judge } from './judge.ts';

export interface JudgeSettings {
  contracts: ContractName[];
  profile: ProfileName;
  upstream: string;
}

export interface JudgeRequest {
  id: string;
  passed: Passed;
}

const { contracts, profile, upstream } = workerData as JudgeSettings;
const judge = new Judge(
  contracts.map((name): RunContext => {
    const contract = loadContract(name);
    return {
      baseUrl: upstream, profile: profiles[profile], keys: new KeyRing({}), seed: 0, catalogue: new Catalogue([]), ledger: new ImageLedger(), timeoutMs: 0,
      contract, protocol: contract.protocol!, credentials: new Credentials(contract), headers: {},
    };
  }),
);

parentPort!.on('message', ({ id, passed }: JudgeRequest) => {
  // Buffers arrive as Uint8Arrays: the judge reads them as Node's.
  const bodies = { requestBody: Buffer.from(passed.requestBody.buffer, passed.requestBody.byteOffset, passed.requestBody.byteLength), responseBody: Buffer.from(passed.responseBody.buffer, passed.responseBody.byteOffset, passed.responseBody.byteLength) };
  parentPort!.postMessage({ id, judged: judge.judge({ ...passed, ...bodies }, id, upstream) });
});
