/**
 * The shared contract module: the bundled descriptions, their operations and their validators (ajv, JSON
 * Schema 2020-12). The reference server and the conformance suite both validate through this module, so
 * no schema is ever written twice by hand. `contract` is the public contract; the reference server loads
 * its admin API as another `Contract`.
 */
export { contract } from './gateway.ts';
export { gatewayDocument } from './gateway-document.ts';
export { Contract, type Verdict } from './contract.ts';
export { contractNames, isContractName, loadContract, type ContractName } from './contracts.ts';
export { Protocol, type ProtocolRule, type RuleLevel } from './protocol.ts';
export type { OpenApiDocument, OperationObject, ResponseObject, HeaderObject, ParameterObject, SchemaObject, MediaTypeObject, SecuritySchemeObject } from './document.ts';
export { acceptsScheme, isPublic, documentedResponse, modelEndpoint, type Operation, type HttpMethod } from './operations.ts';
export { compileInline, describeErrors, newAjv, withFormats } from './ajv.ts';
export { escapePointer, resolveRef, resolvePointer, resolveSchema, followRefs, isRef } from './refs.ts';
export { tiers, tierRank, dailyImageQuota, type Tier, type KeyTier } from './tiers.ts';
