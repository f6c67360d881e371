/**
 * The console's only script (docs/console.md "Passkeys"): served from our own origin at
 * /console/assets/passkeys.js, which the CSP's `script-src 'self'` allows, and nothing else.
 * It shows the passkey forms only where the browser has WebAuthn with its JSON helpers
 * (PublicKeyCredential.parseCreationOptionsFromJSON): elsewhere the e-mailed link is the way in.
 */
export const PASSKEY_SCRIPT = `'use strict';
(() => {
  const PKC = window.PublicKeyCredential;
  if (!PKC || !PKC.parseCreationOptionsFromJSON || !PKC.parseRequestOptionsFromJSON) return;
  const post = async (url, fields) => {
    const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields), credentials: 'same-origin' });
    const body = await res.json().catch(() => ({ message: 'The console could not answer. Try again.' }));
    if (!res.ok) throw new Error(body.message || 'Try again.');
    return body;
  };
  const run = (form, ceremony) => {
    const status = form.querySelector('[data-passkey-status]');
    form.hidden = false;
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      status.textContent = 'Waiting for your passkey…';
      try {
        const done = await ceremony(Object.fromEntries(new FormData(form)));
        location.assign(done.location);
      } catch (err) {
        status.textContent = err && err.name === 'NotAllowedError' ? 'The passkey was not used. Try again, or use the e-mailed link.' : String(err.message || err);
      }
    });
  };
  const register = document.querySelector('form[data-passkey="register"]');
  if (register)
    run(register, async (fields) => {
      const options = await post('/console/account/passkeys/options', { csrf: fields.csrf });
      const credential = await navigator.credentials.create({ publicKey: PKC.parseCreationOptionsFromJSON(options) });
      return post('/console/account/passkeys', { ...fields, response: JSON.stringify(credential.toJSON()) });
    });
  const signIn = document.querySelector('form[data-passkey="sign-in"]');
  if (signIn)
    run(signIn, async () => {
      const options = await post('/console/sign-in/passkey/options', {});
      const credential = await navigator.credentials.get({ publicKey: PKC.parseRequestOptionsFromJSON(options) });
      return post('/console/sign-in/passkey', { response: JSON.stringify(credential.toJSON()) });
    });
})();
`;
