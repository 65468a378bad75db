/**
 * The dashboard's page at `/dashboard`: the key manager for the admin, and for anyone else a 401 whose
 * body is the sign-in form. Its script and style sheet are public (they hold no data) and come from
 * `public/`; the tier choices and quotas are filled in from the contract, so the page never disagrees
 * with it.
 */
import { readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { dailyImageQuota, tiers, type KeyTier } from '../../contract/index.ts';
import { packageFile } from '../../package-root.ts';
import type { Credentials } from '../http/auth.ts';
import { isAdmin } from './access.ts';
import { sendPage, STRICT_PAGE_POLICY } from '../http/security-headers.ts';
import { notFound } from '../domain/errors.ts';

const publicDir = packageFile('src/server/dashboard/public/');
const read = (name: string) => readFileSync(new URL(name, publicDir), 'utf8');

const assets: Record<string, string> = {
  'dashboard.css': 'text/css; charset=utf-8',
  'dashboard.js': 'text/javascript; charset=utf-8',
  'sign-in.js': 'text/javascript; charset=utf-8',
};

export function registerDashboardPage(app: FastifyInstance, credentials: Credentials): void {
  const keyTiers = tiers.filter((tier): tier is KeyTier => tier !== 'free');
  const managerPage = read('dashboard.html')
    .replace('<!-- tier-choices -->', keyTiers.map(tierChoice).join('\n'))
    .replace('<!-- tier-rows -->', keyTiers.map(tierRow).join('\n'));
  const signInPage = read('sign-in.html');
  const files = new Map(Object.keys(assets).map((name) => [name, read(name)]));

  // Its script and style sheet are files of this origin: the strict page policy suits it as it is.
  const page = (reply: FastifyReply, html: string) => sendPage(reply.header('cache-control', 'no-store'), html, STRICT_PAGE_POLICY);

  app.get('/dashboard', async (request, reply) => {
    if (await isAdmin(request, credentials)) return page(reply, managerPage);
    return page(reply.code(401), signInPage);
  });
  app.get('/dashboard/', async (_request, reply) => reply.redirect('/dashboard', 308));

  app.get('/dashboard/assets/:name', async (request, reply) => {
    const { name } = request.params as { name: string };
    const body = files.get(name);
    if (body === undefined) throw notFound(`No dashboard asset '${name}'.`);
    return reply.type(assets[name]!).header('cache-control', 'no-cache').send(body);
  });
}

function tierChoice(tier: KeyTier, index: number): string {
  const quota = dailyImageQuota(tier);
  return `<label class="tier-choice">
            <input type="radio" name="tier" value="${tier}"${index === 0 ? ' checked' : ''} required>
            <span class="tier-choice-name">${capitalised(tier)}</span>
            <span class="tier-choice-quota">${quota} images a day</span>
          </label>`;
}

function tierRow(tier: KeyTier): string {
  return `<tr><th scope="row">${capitalised(tier)}</th><td>${dailyImageQuota(tier)}</td></tr>`;
}

function capitalised(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
