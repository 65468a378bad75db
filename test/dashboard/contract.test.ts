// The dashboard's operations are the reference implementation's admin API: a description of their own
// (openapi/admin/), outside /v1 and apart from the public contract, secured by the admin token, and with key
// tiers that match the contract's tiers.
import { describe, expect, it } from 'vitest';
import { acceptsScheme, contract, isPublic, tiers } from '../../src/contract/index.ts';
import { adminApi } from '../../src/server/dashboard/admin-api.ts';

describe('the admin API', () => {
  it('holds the six dashboard operations the server routes', () => {
    expect(adminApi.operations.map((op) => `${op.method} ${op.path} ${op.operationId}`).sort()).toEqual([
      'delete /dashboard/api/keys/{keyId} revokeApiKey',
      'delete /dashboard/api/session deleteDashboardSession',
      'get /dashboard/api/keys listApiKeys',
      'get /dashboard/api/upstreams listUpstreams',
      'post /dashboard/api/keys createApiKey',
      'post /dashboard/api/session createDashboardSession',
    ]);
  });

  it('lives outside /v1, and the public contract has none of its operations or schemes', () => {
    for (const op of adminApi.operations) expect(op.path.startsWith('/v1/'), op.operationId).toBe(false);
    expect(contract.operations.every((op) => op.path.startsWith('/v1/'))).toBe(true);
    expect(Object.keys(contract.spec.components.securitySchemes)).not.toContain('AdminToken');
    expect(adminApi.spec.info.description).toMatch(/belong to the reference implementation, not to the gateway's public contract/);
  });

  it('needs the admin token or the session, except signing in and out', () => {
    for (const op of adminApi.operations) {
      const open = ['createDashboardSession', 'deleteDashboardSession'].includes(op.operationId);
      expect(isPublic(op), op.operationId).toBe(open);
      if (!open) {
        expect(op.security).toEqual([['AdminToken'], ['AdminSession']]);
        expect(acceptsScheme(op, 'ApiKeyHeader'), op.operationId).toBe(false);
      }
    }
    expect(adminApi.spec.components.securitySchemes.AdminToken).toMatchObject({ type: 'apiKey', in: 'header', name: 'x-admin-token' });
    expect(adminApi.spec.components.securitySchemes.AdminSession).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'gateway_admin' });
  });

  it('offers exactly the tiers a key can have: every tier but free', () => {
    expect(adminApi.spec.components.schemas.ApiKeyTier!.enum).toEqual(tiers.filter((t) => t !== 'free'));
  });
});
