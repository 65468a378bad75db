/**
 * Answers to requests no valid client sends: malformed JSON, another content type (D21), a body over the
 * size limit (D9), an unknown route or method (D21), an unknown model (D10), and a model that does not offer
 * the endpoint, which for the image endpoints is the specification's image model rule. Each is a 4xx
 * `{error}`, never a 5xx.
 */
import { modelEndpoint, tierRank, type Operation } from '../../contract/index.ts';
import { stated, type Check, type RunContext } from '../check.ts';
import { takesModel, withModel } from '../examples.ts';
import { errorMessage, expectClientError, expectErrorBody } from '../expectations.ts';
import { validRequest } from '../requests.ts';

export const UNKNOWN_ROUTE = '/v1/conformance-unknown-route';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

export function errorChecks(ctx: RunContext): Check[] {
  const checks: Check[] = stated(ctx, 'unknown-route', {
    id: 'general/errors/unknown-route',
    operationId: 'general',
    family: 'errors',
    title: `an unknown route (GET ${UNKNOWN_ROUTE}) → 404 {error} (D21; core: 4xx)`,
    async run(t) {
      const best = t.ctx.keys.best();
      const ex = await t.send({ method: 'GET', path: UNKNOWN_ROUTE, headers: t.ctx.credentials.headers(best?.key) });
      if (!t.ctx.profile.reference) {
        const status = ex.response?.status ?? 0;
        t.expect(status >= 400 && status < 500, `expected a 4xx, got ${status || ex.error}`, 'unknown-route', ex);
      } else if (t.status(ex, 404, 'unknown-route')) expectErrorBody(t, ex);
    },
  });
  const paths = new Set<string>();
  for (const op of ctx.contract.operations) {
    const hasBody = op.requestContentTypes.includes('application/json');
    if (hasBody) checks.push(...malformedJson(ctx, op), ...otherContentType(ctx, op), ...tooLarge(ctx, op));
    if (!paths.has(op.path)) checks.push(...wrongMethod(ctx, op));
    paths.add(op.path);
  }
  return [...checks, ...modelChecks(ctx)];
}

/** D21: a known route with a method it does not have → 405 `{error}` with `Allow`. */
function wrongMethod(ctx: RunContext, op: Operation): Check[] {
  const defined = Object.keys(ctx.contract.spec.paths[op.path] ?? {}).filter((m) => METHODS.includes(m));
  const method = METHODS.find((m) => !defined.includes(m)) ?? 'patch';
  return stated(ctx, 'wrong-method', {
    id: `${op.operationId}/errors/wrong-method`,
    operationId: op.operationId,
    family: 'errors',
    title: `${method.toUpperCase()} ${op.path} → 405 {error} with Allow (D21)`,
    async run(t) {
      const best = t.ctx.keys.best();
      const ex = await t.send({ method, path: op.path, headers: t.ctx.credentials.headers(best?.key, op) });
      if (!t.status(ex, 405, 'wrong-method')) return;
      expectErrorBody(t, ex);
      const allow = (ex.response?.headers.allow ?? '').toLowerCase().split(/\s*,\s*/);
      const missing = defined.filter((m) => !allow.includes(m));
      t.expect(missing.length === 0, `the Allow header ${JSON.stringify(ex.response?.headers.allow)} does not list ${missing.join(', ').toUpperCase()}`, 'wrong-method', ex);
    },
  });
}

/** D21: a body that is not `application/json` → 400 naming the content type received. */
function otherContentType(ctx: RunContext, op: Operation): Check[] {
  const sent = 'text/plain';
  return stated(ctx, 'content-type', {
    id: `${op.operationId}/errors/content-type`,
    operationId: op.operationId,
    family: 'errors',
    title: `a ${sent} body → 400 naming ${sent} (D21)`,
    async run(t) {
      const req = validRequest(t, op);
      const ex = await t.send({ ...req, json: undefined, raw: JSON.stringify(req.json), headers: { ...req.headers, 'content-type': sent } });
      if (!expectClientError(t, op, ex, 400, 'content-type')) return;
      const message = errorMessage(ex) ?? '';
      t.expect(message.includes(sent), `the message ${JSON.stringify(message)} does not name ${sent}`, 'content-type', ex);
    },
  });
}

function malformedJson(ctx: RunContext, op: Operation): Check[] {
  return stated(ctx, 'malformed-json', {
    id: `${op.operationId}/errors/malformed-json`,
    operationId: op.operationId,
    family: 'errors',
    title: `malformed JSON → ${ctx.protocol.exactStatuses ? '400' : '4xx'} error`,
    async run(t) {
      const req = validRequest(t, op);
      const ex = await t.send({ ...req, json: undefined, raw: '{"conformance": ', headers: { ...req.headers, 'content-type': 'application/json' } });
      // Prism answers malformed JSON with its own error shape: only the status says something there.
      if (!t.ctx.profile.stateful) t.expect((ex.response?.status ?? 0) >= 400 && (ex.response?.status ?? 0) < 500, `expected a 4xx, got ${ex.response?.status}`, 'malformed-json', ex);
      else expectClientError(t, op, ex, 400, 'malformed-json');
    },
  });
}

/** A body over the limit the description states (`body-limit`) → 413 (the gateway's core: any 4xx). */
function tooLarge(ctx: RunContext, op: Operation): Check[] {
  const limit = ctx.protocol.rule('body-limit')?.bytes;
  if (!limit || !op.responses['413']) return [];
  return stated(ctx, 'body-limit', {
    id: `${op.operationId}/errors/too-large`,
    operationId: op.operationId,
    family: 'errors',
    title: `a body over ${limit / 1024 / 1024} MiB → 413 error${ctx.protocol.exactStatuses ? '' : ' (core: 4xx)'}`,
    stateful: true,
    async run(t) {
      const req = validRequest(t, op);
      const ex = await t.send({ ...req, json: undefined, raw: oversizedBody(req.json, limit) });
      expectClientError(t, op, ex, 413, 'body-limit');
    },
  });
}

/**
 * A valid request made just over `limit` bytes by lengthening its longest text (its prompt, a message, the
 * base64 of an image): a valid field, since a gateway may rightly drop a field it does not know, and with it
 * the size. Written around the JSON of the rest, not serialised whole: 20 MiB through JSON.stringify costs
 * more than sending it.
 */
function oversizedBody(body: unknown, limit: number): Buffer {
  const MARK = 'conformance-oversized-text';
  const copy = structuredClone((body ?? {}) as Record<string, unknown>);
  let longest: { parent: Record<string, unknown>; key: string; length: number } | undefined;
  const visit = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (typeof value === 'string' && key !== 'model' && (!longest || value.length > longest.length)) longest = { parent: node as Record<string, unknown>, key, length: value.length };
      else visit(value);
    }
  };
  visit(copy);
  if (longest) longest.parent[longest.key] = MARK;
  else copy.prompt = MARK;
  const [before, after] = JSON.stringify(copy).split(`"${MARK}"`) as [string, string];
  return Buffer.concat([Buffer.from(`${before}"`), Buffer.alloc(limit + 1024, 'x'), Buffer.from(`"${after}`)]);
}

export const UNKNOWN_MODEL = 'conformance-unknown-model';

/** The model a request names: unknown (404, D10), or one that does not offer the endpoint (400). */
function modelChecks(ctx: RunContext): Check[] {
  return ctx.contract.operations.filter((op) => takesModel(ctx.contract, op)).flatMap((op) => [...unknownModel(ctx, op), ...modelRule(ctx, op)]);
}

function unknownModel(ctx: RunContext, op: Operation): Check[] {
  const status = op.responses['404'] ? 404 : 400;
  return stated(ctx, 'unknown-model', {
    id: `${op.operationId}/errors/unknown-model`,
    operationId: op.operationId,
    family: 'errors',
    title: `an unknown model '${UNKNOWN_MODEL}' → ${status} error${ctx.protocol.exactStatuses ? '' : ' (D10; core: 4xx)'}`,
    stateful: true,
    async run(t) {
      const req = withModel(t.ctx.contract, op, validRequest(t, op), UNKNOWN_MODEL);
      expectClientError(t, op, await t.send(req), status, 'unknown-model');
    },
  });
}

/**
 * A model from the listing that does not offer this endpoint → 400 whose message names a model that
 * does. For the image endpoints this is the specification's image model rule (core); elsewhere D10.
 */
function modelRule(ctx: RunContext, op: Operation): Check[] {
  if (!ctx.catalogue.described) return [];
  const image = ctx.catalogue.imageModel();
  const endpoint = modelEndpoint(op);
  const imageRule = !!image && !!image.endpoints?.includes(endpoint);
  return stated(ctx, 'model-endpoints', {
    id: `${op.operationId}/errors/model-without-endpoint`,
    operationId: op.operationId,
    family: 'errors',
    title: imageRule
      ? `a chat model as model → 400 naming the image model '${image!.id}'`
      : `a model that does not offer ${endpoint} → 400 naming one that does (D10)`,
    stateful: true,
    reference: !imageRule,
    async run(t) {
      const best = t.ctx.keys.best();
      if (!best?.tier) return t.skip('no key given with its tier (--key TIER=KEY)');
      const other = t.ctx.catalogue.models
        .filter((m) => !m.endpoints?.includes(endpoint) && tierRank(m.tier!) <= tierRank(best.tier!))
        .sort((a, b) => Number(b.category === 'Chat') - Number(a.category === 'Chat'))[0];
      if (!other) return t.skip(`every model in the listing offers ${endpoint}`);
      const ex = await t.send(withModel(t.ctx.contract, op, validRequest(t, op), other.id));
      const rule = imageRule ? 'model-endpoints: the image model rule' : 'model-endpoints';
      if (!t.status(ex, 400, rule, `model '${other.id}'`)) return;
      t.shape(op, ex);
      const message = errorMessage(ex) ?? '';
      const named = imageRule ? [image!.id] : t.ctx.catalogue.offering(endpoint).map((m) => m.id);
      t.expect(named.some((id) => message.includes(id)), `the message ${JSON.stringify(message)} names none of ${named.join(', ')}`, rule, ex);
    },
  });
}
