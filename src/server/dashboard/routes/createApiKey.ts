/**
 * POST /dashboard/api/keys — makes a key and answers it in full this one time. Only its hash and prefix
 * are stored (`issueKey`), the answer is `no-store`, and nothing here logs it.
 */
import type { components } from '../../../../generated/schema.d.ts';
import { utcDay } from '../../day.ts';
import { issueKey } from '../../keys.ts';
import { keyView } from '../key-view.ts';
import type { DashboardHandler } from './types.ts';

type CreateApiKeyRequest = components['schemas']['CreateApiKeyRequest'];
type CreatedApiKey = components['schemas']['CreatedApiKey'];

export const createApiKey: DashboardHandler = async (request, reply, { gateway }) => {
  const { name, tier } = gateway.validate.body<CreateApiKeyRequest>('createApiKey', request.body);
  const { key, record } = issueKey(gateway.store, name.trim(), tier);
  const created: CreatedApiKey = { ...keyView(record, gateway.store, utcDay(gateway.now())), key };
  return reply.code(201).header('cache-control', 'no-store').send(created);
};
