/**
 * Answers to requests no valid client sends: malformed JSON, another content type (D21), a body over the
 * size limit (D9), an unknown route or method (D21), an unknown model (D10), and a model that does not offer
 * the endpoint, which for the image endpoints is the specification's image model rule. Each is a 4xx
 * `{error}`, never a 5xx.
 */
import { contract, modelEndpoint, tierRank, type Operation } from '../../contract/index.ts';
import { keyHeaders } from '../keys.ts';
import { checkedOperations } from '../scope.ts';
import type { Check, RunContext } from '../check.ts';
import { takesModel, withModel } from '../examples.ts';
import { errorMessage, expectClientError, expectErrorBody, SPEC } from '../expectations.ts';
import { validRequest } from '../requests.ts';

/** D9: bodies up to 20 MiB are accepted. */
export const BODY_LIMIT = 20 * 1024 * 1024;

export const UNKNOWN_ROUTE = '/v1/conformance-unknown-route';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

export function errorChecks(ctx: RunContext): Check[] {
  const checks: Check[] = [
    {
      id: 'general/errors/unknown-route',
      operationId: 'general',
      family: 'errors',
      title: `an unknown route (GET ${UNKNOWN_ROUTE}) → 404 {error} (D21; core: 4xx)`,
      async run(t) {
        const best = t.ctx.keys.best();
        const ex = await t.send({ method: 'GET', path: UNKNOWN_ROUTE, headers: keyHeaders(best?.key) });
        if (!t.ctx.profile.reference) {
          const status = ex.response?.status ?? 0;
          t.expect(status >= 400 && status < 500, `expected a 4xx, got ${status || ex.error}`, 'HTTP: unknown route', ex);
        } else if (t.status(ex, 404, 'D21')) expectErrorBody(t, ex);
      },
    },
  ];
  const paths = new Set<string>();
  for (const op of checkedOperations) {
    const hasBody = op.requestContentTypes.includes('application/json');
    if (hasBody) checks.push(malformedJson(op), otherContentType(op), tooLarge(op));
    if (!paths.has(op.path)) checks.push(wrongMethod(op));
    paths.add(op.path);
  }
  return [...checks, ...modelChecks(ctx)];
}

/** D21: a known route with a method it does not have → 405 `{error}` with `Allow`. */
function wrongMethod(op: Operation): Check {
  const defined = Object.keys(contract.spec.paths[op.path] ?? {}).filter((m) => METHODS.includes(m));
  const method = METHODS.find((m) => !defined.includes(m)) ?? 'patch';
  return {
    id: `${op.operationId}/errors/wrong-method`,
    operationId: op.operationId,
    family: 'errors',
    title: `${method.toUpperCase()} ${op.path} → 405 {error} with Allow (D21)`,
    reference: true,
    async run(t) {
      const best = t.ctx.keys.best();
      const ex = await t.send({ method, path: op.path, headers: keyHeaders(best?.key) });
      if (!t.status(ex, 405, 'D21')) return;
      expectErrorBody(t, ex);
      const allow = (ex.response?.headers.allow ?? '').toLowerCase().split(/\s*,\s*/);
      const missing = defined.filter((m) => !allow.includes(m));
      t.expect(missing.length === 0, `the Allow header ${JSON.stringify(ex.response?.headers.allow)} does not list ${missing.join(', ').toUpperCase()}`, 'D21', ex);
    },
  };
}

/** D21: a body that is not `application/json` → 400 naming the content type received. */
function otherContentType(op: Operation): Check {
  const sent = 'text/plain';
  return {
    id: `${op.operationId}/errors/content-type`,
    operationId: op.operationId,
    family: 'errors',
    title: `a ${sent} body → 400 naming ${sent} (D21)`,
    reference: true,
    async run(t) {
      const req = validRequest(t, op);
      const ex = await t.send({ ...req, json: undefined, raw: JSON.stringify(req.json), headers: { ...req.headers, 'content-type': sent } });
      if (!expectClientError(t, op, ex, 400, 'D21')) return;
      const message = errorMessage(ex) ?? '';
      t.expect(message.includes(sent), `the message ${JSON.stringify(message)} does not name ${sent}`, 'D21', ex);
    },
  };
}

function malformedJson(op: Operation): Check {
  return {
    id: `${op.operationId}/errors/malformed-json`,
    operationId: op.operationId,
    family: 'errors',
    title: 'malformed JSON → 4xx {error}',
    async run(t) {
      const req = validRequest(t, op);
      const ex = await t.send({ ...req, json: undefined, raw: '{"conformance": ', headers: { ...req.headers, 'content-type': 'application/json' } });
      // Prism answers malformed JSON with its own error shape: only the status says something there.
      if (!t.ctx.profile.stateful) t.expect((ex.response?.status ?? 0) >= 400 && (ex.response?.status ?? 0) < 500, `expected a 4xx, got ${ex.response?.status}`, 'HTTP', ex);
      else expectClientError(t, op, ex, 400, 'malformed JSON');
    },
  };
}

function tooLarge(op: Operation): Check {
  return {
    id: `${op.operationId}/errors/too-large`,
    operationId: op.operationId,
    family: 'errors',
    title: `a body over ${BODY_LIMIT / 1024 / 1024} MiB → 413 {error} (core: 4xx)`,
    stateful: true,
    async run(t) {
      const req = validRequest(t, op);
      const ex = await t.send({ ...req, json: undefined, raw: oversizedBody() });
      expectClientError(t, op, ex, 413, 'D9');
    },
  };
}

let oversized: Buffer | undefined;

/** A JSON object just over the limit, built once: building 20 MiB costs more than sending it. */
function oversizedBody(): Buffer {
  oversized ??= Buffer.concat([Buffer.from('{"prompt":"'), Buffer.alloc(BODY_LIMIT + 1024, 'x'), Buffer.from('"}')]);
  return oversized;
}

export const UNKNOWN_MODEL = 'conformance-unknown-model';

/** The model a request names: unknown (404, D10), or one that does not offer the endpoint (400). */
function modelChecks(ctx: RunContext): Check[] {
  return checkedOperations.filter((op) => takesModel(op)).flatMap((op) => [unknownModel(op), ...modelRule(ctx, op)]);
}

function unknownModel(op: Operation): Check {
  return {
    id: `${op.operationId}/errors/unknown-model`,
    operationId: op.operationId,
    family: 'errors',
    title: `an unknown model '${UNKNOWN_MODEL}' → 404 {error} (D10; core: 4xx)`,
    stateful: true,
    async run(t) {
      const req = withModel(op, validRequest(t, op), UNKNOWN_MODEL);
      expectClientError(t, op, await t.send(req), op.responses['404'] ? 404 : 400, 'D10');
    },
  };
}

/**
 * A model from the listing that does not offer this endpoint → 400 whose message names a model that
 * does. For the image endpoints this is the specification's image model rule (core); elsewhere D10.
 */
function modelRule(ctx: RunContext, op: Operation): Check[] {
  const image = ctx.catalogue.imageModel();
  const endpoint = modelEndpoint(op);
  const imageRule = !!image && image.endpoints.includes(endpoint);
  return [
    {
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
        if (!best) return t.skip('no key given (--key tier=sk-…)');
        const other = t.ctx.catalogue.models
          .filter((m) => !m.endpoints.includes(endpoint) && tierRank(m.tier) <= tierRank(best.tier))
          .sort((a, b) => Number(b.category === 'Chat') - Number(a.category === 'Chat'))[0];
        if (!other) return t.skip(`every model in the listing offers ${endpoint}`);
        const ex = await t.send(withModel(op, validRequest(t, op), other.id));
        const rule = imageRule ? `${SPEC.errors}: image model rule` : 'D10';
        if (!t.status(ex, 400, rule, `model '${other.id}'`)) return;
        t.shape(op, ex);
        const message = errorMessage(ex) ?? '';
        const named = imageRule ? [image!.id] : t.ctx.catalogue.offering(endpoint).map((m) => m.id);
        t.expect(named.some((id) => message.includes(id)), `the message ${JSON.stringify(message)} names none of ${named.join(', ')}`, rule, ex);
      },
    },
  ];
}
