// The sign-in form: trades the admin token for the session cookie, then loads the dashboard.
const form = document.getElementById('sign-in-form');
const input = document.getElementById('admin-token');
const error = document.getElementById('sign-in-error');

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  error.textContent = '';
  const token = input.value.trim();
  if (!token) {
    error.textContent = 'Enter the admin token.';
    input.focus();
    return;
  }
  const button = form.querySelector('button[type="submit"]');
  button.disabled = true;
  try {
    const res = await fetch('/dashboard/api/session', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    if (res.status === 204) {
      // The same URL, loaded again: now with the cookie, the server answers the dashboard itself.
      history.replaceState(null, '', `/dashboard${location.hash || '#/overview'}`);
      location.reload();
      return;
    }
    const body = await res.json().catch(() => ({}));
    error.textContent = body.error ?? `Sign-in failed (HTTP ${res.status}).`;
  } catch {
    error.textContent = 'The server cannot be reached.';
  } finally {
    button.disabled = false;
  }
  input.select();
  input.focus();
});
