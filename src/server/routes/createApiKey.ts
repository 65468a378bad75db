/**
 * POST /dashboard/api/keys — makes a key and answers it in full this one time. Only its hash and prefix
 * are stored (`issueKey`), the answer is `no-store`, and nothing here logs it.
 */
import type { components } from '../../../generated/admin/schema.d.ts';
import { keyView } from '../dashboard/key-view.ts';
import { utcDay } from '../domain/day.ts';
import { issueKey } from '../domain/keys.ts';
import type { Handler } from '../context.ts';

type CreateApiKeyRequest = components['schemas']['CreateApiKeyRequest'];
type CreatedApiKey = components['schemas']['CreatedApiKey'];

export const createApiKey: Handler = async (request, reply, { store, now }) => {
  const { name, tier } = request.body as CreateApiKeyRequest;
  const { key, record } = await issueKey(store, name.trim(), tier);
  const created: CreatedApiKey = Object.assign(await keyView(record, store, utcDay(now())), { key });
  return reply.code(201).header('cache-control', 'no-store').send(created);
};
