/** Request helpers for the dashboard tests: the admin token or the session cookie, JSON in and out. */
import { call, type Answer } from '../server/http.ts';

export const ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';

export interface AdminAuth {
  token?: string;
  cookie?: string;
}

/** Calls a dashboard operation (`path` below `/dashboard/api`) as the admin, by token unless told otherwise. */
export function admin<T = any>(
  baseUrl: string,
  method: string,
  path: string,
  options: { auth?: AdminAuth; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer<T>> {
  const auth = options.auth ?? { token: ADMIN_TOKEN };
  const headers: Record<string, string> = { ...options.headers };
  if (auth.token !== undefined) headers['x-admin-token'] = auth.token;
  if (auth.cookie !== undefined) headers.cookie = auth.cookie;
  return call<T>(baseUrl, method, `/dashboard/api${path}`, { headers, ...(options.body !== undefined && { body: options.body }) });
}

/** Signs in and returns the `name=value` part of the session cookie. */
export async function signIn(baseUrl: string, token = ADMIN_TOKEN): Promise<string> {
  const res = await admin(baseUrl, 'POST', '/session', { auth: {}, body: { token } });
  if (res.status !== 204) throw new Error(`sign-in answered ${res.status}: ${res.text}`);
  return res.headers.get('set-cookie')!.split(';')[0]!;
}

export const chatBody = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello!' }] };
