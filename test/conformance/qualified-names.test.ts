/** How the suite names what belongs to a contract (`openai:createResponse`), and how `--only`/`--skip` names select checks. */
import { describe, expect, it } from 'vitest';
import type { Check } from '../../src/conformance/check.ts';
import { selected } from '../../src/conformance/plan.ts';
import { operationLabel, qualified, splitQualified, unqualified } from '../../src/conformance/results.ts';

function check(contract: string, id: string, operationId: string, family: Check['family']): Check {
  return { id: qualified(contract, id), contract, operationId, family, title: id, rule: 'r', run: async () => {} };
}

describe('qualified names', () => {
  it("leave the gateway's names bare and put another contract's name before its own", () => {
    expect(qualified('gateway', 'createImage/errors/too-large')).toBe('createImage/errors/too-large');
    expect(qualified('openai', 'createResponse/streaming/grammar')).toBe('openai:createResponse/streaming/grammar');
    expect(operationLabel({ contract: 'anthropic', operationId: 'createMessage' })).toBe('anthropic:createMessage');
    expect(operationLabel({ contract: 'gateway', operationId: 'createMessage' })).toBe('createMessage');
  });

  it('give back the name they were made from', () => {
    expect(unqualified('openai', 'openai:createResponse/streaming/grammar')).toBe('createResponse/streaming/grammar');
    expect(unqualified('gateway', 'createImage/errors/too-large')).toBe('createImage/errors/too-large');
  });

  it('split a name given on the command line at its contract', () => {
    expect(splitQualified('openai:createResponse')).toEqual({ contract: 'openai', name: 'createResponse' });
    expect(splitQualified('anthropic:')).toEqual({ contract: 'anthropic', name: '' });
    expect(splitQualified('createImage/errors')).toEqual({ name: 'createImage/errors' });
  });
});

describe('--only and --skip names', () => {
  const gateway = check('gateway', 'createChatCompletion/streaming/without-usage', 'createChatCompletion', 'streaming');
  const openai = check('openai', 'createChatCompletion/streaming/without-usage', 'createChatCompletion', 'streaming');

  it('select by operationId, family, id or id prefix, in every contract when no contract is named', () => {
    for (const name of ['createChatCompletion', 'streaming', 'createChatCompletion/streaming', 'createChatCompletion/streaming/without-usage']) {
      expect(selected(gateway, [name]), name).toBe(true);
      expect(selected(openai, [name]), name).toBe(true);
    }
    expect(selected(gateway, ['createChatCompletion/stream'])).toBe(false);
    expect(selected(gateway, ['auth'])).toBe(false);
  });

  it("select only the named contract's checks when one is named, all of them by the contract alone", () => {
    expect(selected(openai, ['openai:'])).toBe(true);
    expect(selected(gateway, ['openai:'])).toBe(false);
    expect(selected(openai, ['openai:createChatCompletion/streaming'])).toBe(true);
    expect(selected(gateway, ['openai:createChatCompletion/streaming'])).toBe(false);
    expect(selected(gateway, ['gateway:createChatCompletion'])).toBe(true);
    expect(selected(openai, ['gateway:createChatCompletion'])).toBe(false);
    expect(selected(openai, ['anthropic:streaming'])).toBe(false);
  });

  it('select every check when none is named', () => {
    expect(selected(openai, [])).toBe(true);
  });
});
