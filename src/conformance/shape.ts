/**
 * Does a response look the way the contract documents it? Status, content type, body schema (ajv) and
 * headers, with the leniency of the profile: parts that belong to a reference decision are checked only
 * in the `full` profile.
 */
import { documentedResponse, escapePointer, describeErrors, type Operation } from '../contract/index.ts';
import { checksDecisions, exactStatuses, type RunContext, type ShapeOptions } from './check.ts';
import type { Exchange } from './http.ts';
import type { Violation } from './results.ts';
import { isReferenceSchema, schemaLocation } from './schema.ts';

/**
 * The violations of the contract in one exchange, or an empty list.
 * @example
 * const problems = checkShape(ctx, ctx.contract.getOperation('listModels'), exchange);
 */
export function checkShape(ctx: RunContext, op: Operation, ex: Exchange, options: ShapeOptions = {}): Violation[] {
  const contract = ctx.contract;
  const res = ex.response;
  if (!res) return [{ message: `no answer: ${ex.error ?? 'unknown error'}`, rule: 'HTTP', exchange: ex }];
  const documented = documentedResponse(op, res.status);
  if (!documented) {
    if (options.anyClientError && !exactStatuses(ctx) && res.status >= 400 && res.status < 500) {
      return checkErrorBody(ctx, ex);
    }
    const known = Object.keys(op.responses).join(', ');
    return [{ message: `status ${res.status} is not documented for ${op.operationId} (documented: ${known})`, rule: `${op.method.toUpperCase()} ${op.path} responses`, exchange: ex }];
  }
  const violations: Violation[] = [];
  const responsePointer = `${op.pointer}/responses/${documented.key}`;
  const media = documented.response.content ?? {};
  const mediaTypes = Object.keys(media);
  const mediaType = (res.contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (mediaTypes.length > 0) {
    if (!mediaTypes.includes(mediaType)) {
      violations.push({
        message: `content type '${res.contentType ?? '(none)'}' is not documented for ${res.status} (expected ${mediaTypes.join(' or ')})`,
        rule: `#${contract.canonicalPointer(responsePointer)}/content`,
        exchange: ex,
      });
    } else {
      const schemaPointer = contract.canonicalPointer(`${responsePointer}/content/${escapePointer(mediaType)}/schema`);
      const schema = media[mediaType]!.schema;
      const isJson = mediaType.endsWith('json');
      const body = isJson ? res.json : res.text;
      if (isJson && body === undefined) {
        violations.push({ message: 'body is not JSON', rule: `#${schemaPointer}`, exchange: ex });
      } else if (!isReferenceSchema(contract, schema) || checksDecisions(ctx)) {
        const validate = contract.validatorAt(schemaPointer);
        if (!validate(body)) {
          const first = validate.errors?.[0];
          violations.push({
            message: `body: ${describeErrors(validate.errors)}`,
            rule: first ? schemaLocation(schemaPointer, first.schemaPath) : `#${schemaPointer}`,
            exchange: ex,
          });
        }
      }
    }
  }
  for (const [name, header] of Object.entries(contract.responseHeaders(documented.response))) {
    if (!checksDecisions(ctx) && header['x-conformance'] === 'reference') continue;
    const value = res.headers[name];
    const rule = `#${contract.canonicalPointer(responsePointer)}/headers/${name}`;
    if (value === undefined) {
      if (header.required) violations.push({ message: `required header '${name}' is missing`, rule, exchange: ex });
      continue;
    }
    const typed = header.schema.type === 'integer' || header.schema.type === 'number' ? Number(value) : value;
    const validate = contract.inlineValidator(header.schema);
    if (!validate(typed)) {
      violations.push({ message: `header '${name}: ${value}' ${describeErrors(validate.errors).replace(/^\(root\) /, '')}`, rule, exchange: ex });
    }
  }
  return violations;
}

/**
 * An error answer outside any operation (unknown route) or with an undocumented status: the description's
 * `Error` as JSON (a description without one fixes no such body).
 */
export function checkErrorBody(ctx: RunContext, ex: Exchange): Violation[] {
  const res = ex.response;
  if (!res) return [{ message: `no answer: ${ex.error ?? 'unknown error'}`, rule: 'HTTP', exchange: ex }];
  const mediaType = (res.contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (mediaType !== 'application/json') {
    return [{ message: `content type '${res.contentType ?? '(none)'}' is not application/json`, rule: 'error-object', exchange: ex }];
  }
  if (!ctx.contract.spec.components.schemas.Error) return [];
  const validate = ctx.contract.schemaValidator('Error');
  if (!validate(res.json)) {
    const first = validate.errors?.[0];
    return [{
      message: `body: ${res.json === undefined ? 'not JSON' : describeErrors(validate.errors)}`,
      rule: first ? schemaLocation('/components/schemas/Error', first.schemaPath) : '#/components/schemas/Error',
      exchange: ex,
    }];
  }
  return [];
}
