/**
 * Operations whose path names something another operation creates (`GET /v1/responses/{response_id}`):
 * the contract says which, with an OpenAPI link on the creating operation's answer
 * (`response_id: $response.body#/id`). Before a check's request goes out, each such path parameter gets a
 * real value the way a client gets one: the linked operation is called first, with the same key.
 */
import type { Contract, Operation } from '../contract/index.ts';
import { buildRequest, firstExample } from './examples.ts';
import type { Exchange, OutgoingRequest } from './http.ts';
import type { RunContext } from './check.ts';

export interface Link {
  /** The operation whose answer gives the values. */
  source: Operation;
  /** Runtime expressions by path parameter name. */
  parameters: Record<string, string>;
}

/** The link in the contract that gives `op` its path parameters, when there is one. */
export function linkTo(contract: Contract, op: Operation): Link | undefined {
  for (const source of contract.operations) {
    for (const response of Object.values(source.responses)) {
      for (const link of Object.values(response.links ?? {})) {
        if (link.operationId === op.operationId) return { source, parameters: link.parameters ?? {} };
      }
    }
  }
  return undefined;
}

/** The value of `$response.body#/pointer` in an answer (the only form of expression the contract uses). */
function evaluate(expression: string, ex: Exchange): string | undefined {
  const pointer = /^\$response\.body#(\/.*)?$/.exec(expression)?.[1] ?? '';
  let value: unknown = ex.response?.json;
  for (const part of pointer.split('/').slice(1)) value = (value as Record<string, unknown> | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}

/** Why a check of stored responses skips on a server that stores none. */
export const NOT_STORED = 'the server keeps no stored responses (its answer says "store": false): nothing to read, delete or continue';

/** Whether a created object says it was not kept (a Responses answer's `store: false`), though it was not asked not to be. */
export function notStored(created: Exchange): boolean {
  return (created.response?.json as { store?: unknown } | undefined)?.store === false;
}

/**
 * The request with its `{parameter}`s filled from a fresh call of the linked operation, made with `key`;
 * or, when that fails, why (for the check to skip on).
 */
export async function withLinkedParameters(
  ctx: RunContext,
  req: OutgoingRequest,
  key: string | undefined,
  send: (req: OutgoingRequest) => Promise<Exchange>,
  /** Fields to change in the linked operation's request body (`{store: false}`). */
  sourcePatch: Record<string, unknown> = {},
): Promise<OutgoingRequest | string> {
  const op = ctx.contract.operations.find((o) => o.path === req.path && o.method === req.method.toLowerCase());
  const link = op && linkTo(ctx.contract, op);
  if (!link) return req;
  const example = firstExample(ctx.contract, link.source);
  if (!example) return `the contract has no request example for ${link.source.operationId}, which makes what ${req.path} needs`;
  const tier = key !== undefined && ctx.keys.has(key) ? ctx.keys.tierOf(key) : ctx.keys.best()?.tier;
  const source = buildRequest(ctx, link.source, example, { ...(tier && { tier }), ...(key && { key }) });
  const created = await send({ ...source, json: { ...(source.json as Record<string, unknown>), ...sourcePatch } });
  const status = created.response?.status ?? 0;
  if (status < 200 || status >= 300) return `${link.source.operationId}, which makes what ${req.path} needs, answered ${status || created.error}`;
  if (sourcePatch.store !== false && notStored(created)) return NOT_STORED;
  let path = req.path;
  for (const [name, expression] of Object.entries(link.parameters)) {
    const value = evaluate(expression, created);
    if (value === undefined) return `${link.source.operationId}'s answer has no value at ${expression} for {${name}}`;
    path = path.replace(`{${name}}`, encodeURIComponent(value));
  }
  return { ...req, path };
}

