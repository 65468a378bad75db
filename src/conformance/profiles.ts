/**
 * What each profile checks. The contract's decisions table marks each decision Core or Reference, and
 * schemas, headers and fields of reference decisions carry `x-conformance: reference`: `core` checks only
 * what the interface specification requires, `full` adds the reference decisions, and `mock` is core
 * minus everything a stateless mock (Prism) cannot do.
 */
export type ProfileName = 'core' | 'full' | 'mock';

export interface Profile {
  name: ProfileName;
  /** Reference decisions are checked (status codes, messages, headers and bodies they fix). */
  reference: boolean;
  /**
   * The server keeps state and tells keys apart: unknown keys are refused, tiers and quotas enforced, and
   * answers follow the request (`n` images of `size`, `max_tokens`, fixed messages). False for a mock,
   * which answers every valid request with the spec's example.
   */
  stateful: boolean;
  /** The server picks JSON or SSE by the `Accept` header rather than by `stream` (Prism does). */
  streamByAccept: boolean;
}

export const profiles: Record<ProfileName, Profile> = {
  core: { name: 'core', reference: false, stateful: true, streamByAccept: false },
  full: { name: 'full', reference: true, stateful: true, streamByAccept: false },
  mock: { name: 'mock', reference: false, stateful: false, streamByAccept: true },
};

export function isProfileName(value: string): value is ProfileName {
  return value in profiles;
}
