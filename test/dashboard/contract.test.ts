// The dashboard's operations in the contract: their own tag, outside /v1, marked as the reference
// implementation's, secured by the admin token, and with key tiers that match the contract's tiers.
import { describe, expect, it } from 'vitest';
import { acceptsScheme, isPublic, operations, spec, tiers } from '../../src/contract/index.ts';

const dashboard = operations.filter((op) => op.tag === 'Dashboard');

describe('the Dashboard operations', () => {
  it('are the five the server routes', () => {
    expect(dashboard.map((op) => `${op.method} ${op.path} ${op.operationId}`).sort()).toEqual([
      'delete /dashboard/api/keys/{keyId} revokeApiKey',
      'delete /dashboard/api/session deleteDashboardSession',
      'get /dashboard/api/keys listApiKeys',
      'post /dashboard/api/keys createApiKey',
      'post /dashboard/api/session createDashboardSession',
    ]);
  });

  it('live outside /v1, carry x-conformance: reference, and no /v1 operation has the tag', () => {
    for (const op of dashboard) {
      expect(op.path.startsWith('/v1/'), op.operationId).toBe(false);
      expect((op.raw as { 'x-conformance'?: string })['x-conformance'], op.operationId).toBe('reference');
    }
    expect(operations.filter((op) => op.path.startsWith('/v1/') && op.tag === 'Dashboard')).toEqual([]);
    const tag = (spec.tags as Array<{ name: string; description: string }>).find((t) => t.name === 'Dashboard')!;
    expect(tag.description).toMatch(/belong to the reference implementation, not to the\s+public `\/v1` contract/);
  });

  it('need the admin token or the session, except signing in and out', () => {
    for (const op of dashboard) {
      const open = ['createDashboardSession', 'deleteDashboardSession'].includes(op.operationId);
      expect(isPublic(op), op.operationId).toBe(open);
      if (!open) {
        expect(op.security).toEqual([['AdminToken'], ['AdminSession']]);
        expect(acceptsScheme(op, 'ApiKeyHeader'), op.operationId).toBe(false);
      }
    }
    expect(spec.components.securitySchemes.AdminToken).toMatchObject({ type: 'apiKey', in: 'header', name: 'x-admin-token' });
    expect(spec.components.securitySchemes.AdminSession).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'gateway_admin' });
  });

  it('offer exactly the tiers a key can have: every tier but free', () => {
    expect(spec.components.schemas.ApiKeyTier!.enum).toEqual(tiers.filter((t) => t !== 'free'));
  });
});
