// The dashboard page: three views behind hash routes (Overview, Settings, Settings → API Keys), the key
// table, and the create and revoke dialogs. Every change goes through the documented /dashboard/api
// operations, with the session cookie. Text from the server is only ever set as textContent.

const $ = (id) => document.getElementById(id);
const views = { overview: 'Overview', upstreams: 'Upstreams', settings: 'Settings', 'settings/api-keys': 'API Keys' };
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const dateAndTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** Calls a dashboard operation; a 401 means the session ended, so the page reloads into the sign-in form. */
async function api(method, path, body) {
  const res = await fetch(`/dashboard/api${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'same-origin',
  });
  if (res.status === 401) {
    location.reload();
    throw new Error('Your session has ended; sign in again.');
  }
  const data = res.status === 204 ? null : await res.json().catch(() => null);
  if (!res.ok) throw new Error(data?.error ?? `The server answered HTTP ${res.status}.`);
  return data;
}

// ---- Routes -------------------------------------------------------------------------------------------

function currentView() {
  const route = location.hash.replace(/^#\/?/, '');
  return Object.hasOwn(views, route) ? route : 'overview';
}

function show(moveFocus) {
  const view = currentView();
  for (const section of document.querySelectorAll('[data-view]')) section.hidden = section.dataset.view !== view;
  for (const link of document.querySelectorAll('[data-route]')) {
    if (link.dataset.route === view) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  document.title = `${views[view]} · Dashboard · AI Model Gateway`;
  // After a click on a link, a screen reader user should land on the new view's heading.
  if (moveFocus) document.querySelector(`[data-view="${view}"] h1`)?.focus();
  if (view === 'upstreams') loadUpstreams();
  else if (view !== 'settings') loadKeys();
}

window.addEventListener('hashchange', () => {
  // In-page anchors such as the skip link (#main) are not views.
  if (location.hash.startsWith('#/') || location.hash === '') show(true);
});

// ---- The key table ------------------------------------------------------------------------------------

const status = $('keys-status');

function text(tag, content, className) {
  const node = document.createElement(tag);
  node.textContent = content;
  if (className) node.className = className;
  return node;
}

function time(iso, format) {
  const node = text('time', format.format(new Date(iso)));
  node.dateTime = iso;
  node.title = dateAndTime.format(new Date(iso));
  return node;
}

function keyRow(key) {
  const row = document.createElement('tr');
  if (key.revokedAt) row.classList.add('is-revoked');

  const name = document.createElement('th');
  name.scope = 'row';
  name.append(text('span', key.name, 'key-name'));
  if (key.demo) name.append(text('span', 'Demo', 'badge badge-muted'));

  const prefix = document.createElement('td');
  prefix.append(text('code', `${key.prefix}…`, 'key-prefix'));

  const tier = document.createElement('td');
  tier.append(text('span', key.tier, `badge tier tier-${key.tier}`));

  const created = document.createElement('td');
  created.append(time(key.createdAt, dateOnly));

  const lastUsed = document.createElement('td');
  lastUsed.append(key.lastUsedAt ? time(key.lastUsedAt, dateAndTime) : text('span', 'Never', 'muted'));

  const { used, quota } = key.imageUsage;
  const usage = document.createElement('td');
  const bar = document.createElement('span');
  bar.className = 'usage-bar';
  bar.setAttribute('aria-hidden', 'true');
  const fill = document.createElement('span');
  fill.className = used >= quota ? 'usage-fill is-full' : 'usage-fill';
  fill.style.width = `${Math.min(100, (used / quota) * 100)}%`;
  bar.append(fill);
  usage.append(text('span', `${used} / ${quota}`, 'usage-count'), bar);

  const state = document.createElement('td');
  state.append(key.revokedAt ? text('span', 'Revoked', 'badge badge-danger') : text('span', 'Active', 'badge badge-ok'));

  const actions = document.createElement('td');
  actions.className = 'actions';
  if (!key.revokedAt) {
    const revoke = text('button', 'Revoke', 'button button-small button-danger-quiet');
    revoke.type = 'button';
    revoke.setAttribute('aria-label', `Revoke ${key.name} (${key.prefix}…)`);
    revoke.addEventListener('click', () => openRevoke(key, revoke));
    actions.append(revoke);
  }

  row.append(name, prefix, tier, created, lastUsed, usage, state, actions);
  return row;
}

let loading;
async function loadKeys() {
  loading ??= api('GET', '/keys')
    .then(({ keys }) => {
      $('keys-body').replaceChildren(...keys.map(keyRow));
      $('keys-empty').hidden = keys.length > 0;
      $('active-count').textContent = String(keys.filter((k) => !k.revokedAt).length);
    })
    .catch((error) => {
      status.textContent = error.message;
    })
    .finally(() => {
      loading = undefined;
    });
  return loading;
}

// ---- Upstreams ----------------------------------------------------------------------------------------

const STATES = { healthy: ['Healthy', 'badge-ok'], cooling_down: ['Cooling down', 'badge-danger'], probing: ['Probing', 'badge-muted'] };

function upstreamRow(model, upstream, first, count) {
  const row = document.createElement('tr');
  if (first) {
    const name = document.createElement('th');
    name.scope = 'rowgroup';
    name.rowSpan = count;
    name.append(text('span', model.model, 'key-name'), text('span', model.strategy, 'badge badge-muted'));
    row.append(name);
  }
  const where = document.createElement('td');
  where.append(text('span', upstream.name, 'key-name'), text('span', `${upstream.protocol} · ${upstream.origin}${model.strategy === 'weighted' ? ` · weight ${upstream.weight}` : ''}`, 'muted'));

  const state = document.createElement('td');
  const [label, badge] = STATES[upstream.state];
  state.append(text('span', label, `badge ${badge}`));
  if (upstream.until) state.append(text('span', ' until ', 'muted'), time(upstream.until, dateAndTime));

  const failures = text('td', String(upstream.recentFailures), 'numeric');
  const last = document.createElement('td');
  if (upstream.lastFailure) {
    const when = text('span', '', 'muted when');
    when.append(time(upstream.lastFailure.at, dateAndTime));
    last.append(text('span', upstream.lastFailure.message), when);
  }
  else last.append(text('span', 'None', 'muted'));
  const served = text('td', `${upstream.served} / ${upstream.attempts}`, 'numeric');
  row.append(where, state, failures, last, served);
  return row;
}

async function loadUpstreams() {
  try {
    const { models } = await api('GET', '/upstreams');
    $('upstreams-body').replaceChildren(...models.flatMap((model) => model.upstreams.map((u, i) => upstreamRow(model, u, i === 0, model.upstreams.length))));
    $('upstreams-empty').hidden = models.length > 0;
  } catch (error) {
    $('upstreams-status').textContent = error.message;
  }
}

// ---- Create New Key -----------------------------------------------------------------------------------

const createDialog = $('create-dialog');
const createForm = $('create-form');
const created = $('created');
const newKey = $('new-key');

$('create-key').addEventListener('click', () => {
  createForm.reset();
  $('create-error').textContent = '';
  createForm.hidden = false;
  created.hidden = true;
  createDialog.setAttribute('aria-labelledby', 'create-title');
  createDialog.showModal();
  $('key-name').focus();
});

createForm.addEventListener('submit', async (event) => {
  event.preventDefault();
  const error = $('create-error');
  const name = $('key-name').value.trim();
  const tier = new FormData(createForm).get('tier');
  error.textContent = '';
  if (!name) {
    error.textContent = 'Give the key a name.';
    $('key-name').focus();
    return;
  }
  const submit = $('create-submit');
  submit.disabled = true;
  try {
    const key = await api('POST', '/keys', { name, tier });
    $('created-name').textContent = key.name;
    $('created-tier').textContent = key.tier;
    newKey.value = key.key;
    $('copy-status').textContent = '';
    createForm.hidden = true;
    created.hidden = false;
    createDialog.setAttribute('aria-labelledby', 'created-title');
    newKey.focus();
    newKey.select();
    status.textContent = `Key “${key.name}” created.`;
    loadKeys();
  } catch (failure) {
    error.textContent = failure.message;
  } finally {
    submit.disabled = false;
  }
});

$('copy-key').addEventListener('click', async () => {
  const copyStatus = $('copy-status');
  try {
    await navigator.clipboard.writeText(newKey.value);
    copyStatus.textContent = 'Copied to the clipboard.';
  } catch {
    newKey.focus();
    newKey.select();
    copyStatus.textContent = 'Selected: press Ctrl+C (⌘C on a Mac) to copy.';
  }
});

// Whatever closes the dialog (Done, Cancel, Escape), the key leaves the page with it: it is never shown again.
createDialog.addEventListener('close', () => {
  newKey.value = '';
  $('create-key').focus();
});

// ---- Revoke -------------------------------------------------------------------------------------------

const revokeDialog = $('revoke-dialog');
let revoking;

function openRevoke(key, button) {
  revoking = { key, button };
  $('revoke-name').textContent = `“${key.name}”`;
  $('revoke-prefix').textContent = `${key.prefix}…`;
  $('revoke-error').textContent = '';
  revokeDialog.showModal();
}

$('revoke-confirm').addEventListener('click', async () => {
  const { key } = revoking;
  try {
    await api('DELETE', `/keys/${encodeURIComponent(key.id)}`);
    revoking.done = true;
    revokeDialog.close();
    status.textContent = `Key “${key.name}” revoked: requests with it now answer 401.`;
    await loadKeys();
  } catch (failure) {
    $('revoke-error').textContent = failure.message;
  }
});

revokeDialog.addEventListener('close', () => {
  // Back where the user was: the Revoke button, or, once that row has no button, the page heading.
  if (revoking?.done || !revoking?.button.isConnected) $('keys-title').focus();
  else revoking.button.focus();
  revoking = undefined;
});

// ---- Dialog buttons, sign-out, start ------------------------------------------------------------------

for (const button of document.querySelectorAll('dialog [data-close]')) {
  button.addEventListener('click', () => button.closest('dialog').close());
}

$('sign-out').addEventListener('click', async () => {
  await api('DELETE', '/session').catch(() => undefined);
  location.reload();
});

$('base-url').textContent = `${location.origin}/v1`;
show(false);
