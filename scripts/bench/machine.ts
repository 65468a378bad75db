/** The machine a run was measured on, for the report: figures mean little without it. */
import { availableParallelism, cpus, release, totalmem, type } from 'node:os';

export interface Machine {
  cores: number;
  cpu: string;
  node: string;
  os: string;
  memoryGb: number;
}

/**
 * @example
 *   describeMachine() // { cores: 2, cpu: 'Intel(R) Xeon(R) Processor', node: 'v20.20.2', … }
 */
export function describeMachine(): Machine {
  return {
    cores: availableParallelism(),
    cpu: cpus()[0]?.model.trim() ?? 'unknown',
    node: process.version,
    os: `${type()} ${release()}`,
    memoryGb: Math.round(totalmem() / 2 ** 30),
  };
}
