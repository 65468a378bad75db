/**
 * Deliberate faults for the conformance suite's mutation harness: each one breaks one rule of the contract,
 * and the suite must notice. Off unless the server is built with `faults: [...]`; never set in production.
 */
export const faultNames = [
  'success-status-201',
  'chat-drop-usage',
  'chat-created-string',
  'unauthorized-message',
  'stream-no-done',
  'stream-malformed-event',
  'stream-no-role',
  'stream-no-finish-reason',
  'stream-content-mismatch',
  'bearer-refused',
  'bearer-everywhere',
  'missing-key-accepted',
  'models-require-key',
  'tier-not-enforced',
  'quota-off-by-one',
  'quota-partial-grant',
  'n-ignored',
  'wrong-image-size',
  'mask-ignored',
  'temperature-unchecked',
  'max-tokens-ignored',
  'malformed-json-500',
  'json-content-type-text',
  'missing-retry-after',
  'image-required-message',
  'image-model-rule-ignored',
  'error-body-message-key',
  'too-large-500',
  'unknown-model-500',
  'stream-usage-unasked',
  'edit-quota-free',
  'models-unknown-key-accepted',
  'bearer-unknown-accepted',
  'method-404',
  'forbidden-message-vague',
] as const;

export type FaultName = (typeof faultNames)[number];

export type Faults = ReadonlySet<FaultName>;

export function parseFaults(names: readonly string[] = []): Faults {
  for (const name of names) {
    if (!(faultNames as readonly string[]).includes(name)) throw new Error(`Unknown fault '${name}'. Known: ${faultNames.join(', ')}`);
  }
  return new Set(names as FaultName[]);
}
