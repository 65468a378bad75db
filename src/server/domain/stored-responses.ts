/**
 * Stored responses of the Responses API (decision D29): kept per key, for 30 days, in whatever store the
 * server runs on. A key reads, continues and deletes only its own: another key's response is not found,
 * which says nothing about whether it exists.
 */
import { invalidRequest, notFound } from './errors.ts';
import type { Store, StoredResponse } from './store/index.ts';

/** How long a stored response is kept. */
export const RESPONSE_RETENTION_DAYS = 30;

const DAY_MS = 24 * 60 * 60 * 1000;

/** The moment before which a response has expired. */
function expiry(now: Date): Date {
  return new Date(now.getTime() - RESPONSE_RETENTION_DAYS * DAY_MS);
}

/**
 * @example
 * keepResponse(store, { id: 'resp_…', keyId, createdAt: now.toISOString(), response, items }, now);
 */
export function keepResponse(store: Store, record: StoredResponse, now: Date): Promise<void> {
  return store.saveResponse(record, expiry(now).toISOString());
}

async function live(store: Store, id: string, keyId: string, now: Date): Promise<StoredResponse | undefined> {
  const found = await store.findResponse(id, keyId);
  const expired = found && Date.parse(found.createdAt) < expiry(now).getTime();
  return expired ? undefined : found;
}

/** A response of this key, or not_found. */
export async function storedResponse(store: Store, id: string, keyId: string, now: Date): Promise<StoredResponse> {
  const found = await live(store, id, keyId, now);
  if (!found) throw notFound(`Response '${id}' does not exist for this key.`);
  return found;
}

/** The conversation a `previous_response_id` continues, or invalid_request naming it. */
export async function previousConversation(store: Store, id: string, keyId: string, now: Date): Promise<unknown[]> {
  const found = await live(store, id, keyId, now);
  if (!found) throw invalidRequest(`previous_response_id '${id}' names no response stored for this key (stored with store: true, within ${RESPONSE_RETENTION_DAYS} days, not deleted).`);
  return found.items;
}

/** Deletes a response of this key, or not_found. */
export async function forgetResponse(store: Store, id: string, keyId: string): Promise<void> {
  if (!(await store.deleteResponse(id, keyId))) throw notFound(`Response '${id}' does not exist for this key.`);
}
