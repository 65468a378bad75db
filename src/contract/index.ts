/**
 * The shared contract module: the bundled spec, its operations and their validators (ajv, JSON Schema
 * 2020-12), compiled from `generated/openapi.json`. The reference server and the conformance suite both
 * validate through this module, so no schema is ever written twice by hand.
 */
export { spec, specUrl, deref, canonicalPointer, escapePointer } from './spec.ts';
export { resolveRef, resolvePointer, followRefs, isRef } from './refs.ts';
export type { OpenApiDocument, OperationObject, ResponseObject, HeaderObject, ParameterObject, SchemaObject, MediaTypeObject } from './spec.ts';
export { operations, getOperation, responseHeaders, acceptsScheme, isPublic } from './operations.ts';
export type { Operation, HttpMethod } from './operations.ts';
export { ajv, validatorAt, schemaValidator, compileInline, describeErrors } from './ajv.ts';
export {
  validateRequestBody,
  requestBodyValidator,
  validateQuery,
  validateResponse,
  documentedResponse,
  requestBodyPointer,
  precompile,
} from './validators.ts';
export type { Verdict } from './validators.ts';
export { tiers, tierRank, dailyImageQuota, type Tier, type KeyTier } from './tiers.ts';
