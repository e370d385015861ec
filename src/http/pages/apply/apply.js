// The hosted apply form's enhancement: checks the file before sending, sends it to a presigned
// upload slot (as an integrator's page would) showing the upload's progress, then submits the form
// without the file. While sending, the button says so and takes no second press. A proof of work
// is found only when the service asks for one: after a burst of applications from this network or
// to this role (the page's data-pow-bits, or the upload slot's powBits); a calm candidate computes
// nothing. A refusal of the slot or the upload falls back to the plain form post, which works
// without this script; a connection failure gives the form back with the error.
(() => {
  const form = document.getElementById('apply-form');
  if (!form || !window.fetch || !window.XMLHttpRequest) return;
  const status = document.getElementById('apply-status');
  const input = document.getElementById('cv');
  const button = document.getElementById('apply-submit');
  const upload = document.getElementById('apply-upload');
  const bar = document.getElementById('apply-upload-bar');
  const percent = document.getElementById('apply-upload-text');
  const max = Number(form.dataset.maxBytes);
  const label = button.textContent;
  let sending = false;
  let shownTenth = -1;

  const zeroBits = (bytes) => {
    let n = 0;
    for (const byte of bytes) {
      if (byte === 0) {
        n += 8;
        continue;
      }
      return n + Math.clz32(byte) - 24;
    }
    return n;
  };

  // SHA-256 of `token:n` starting with `bits` zero bits; the server checks it with one hash.
  const solve = async (token, bits) => {
    if (!bits || !window.crypto?.subtle) return null;
    const encoder = new TextEncoder();
    for (let n = 0; n < 1e8; n += 1) {
      const digest = await crypto.subtle.digest('SHA-256', encoder.encode(`${token}:${n}`));
      if (zeroBits(new Uint8Array(digest)) >= bits) return String(n);
    }
    return null;
  };

  /** A failure of the connection itself: the form is given back, not posted into the void. */
  class Offline extends Error {}

  const setSending = (on) => {
    sending = on;
    button.setAttribute('aria-disabled', String(on));
    form.setAttribute('aria-busy', String(on));
    button.textContent = on ? button.dataset.sending : label;
    status.classList.remove('failed');
    status.textContent = on ? button.dataset.sending : '';
    if (!on) upload.hidden = true;
  };

  const progress = (loaded, total) => {
    const value = total > 0 ? Math.min(100, Math.round((loaded / total) * 100)) : 0;
    bar.value = value;
    bar.setAttribute('aria-valuetext', percent.dataset.words.replace('{n}', String(value)));
    // The live region speaks every tenth, not every event.
    const tenth = Math.floor(value / 10);
    if (tenth !== shownTenth) {
      shownTenth = tenth;
      percent.textContent = percent.dataset.words.replace('{n}', String(tenth * 10));
    }
  };

  const slotFor = async (file) => {
    let res;
    try {
      res = await fetch(`/apply/${encodeURIComponent(form.dataset.jobId)}/upload`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        credentials: 'same-origin',
        body: JSON.stringify({ bytes: file.size, csrf: form.elements.csrf.value }),
      });
    } catch {
      throw new Offline('slot');
    }
    if (!res.ok) throw new Error('slot');
    return res.json();
  };

  const put = (url, file) =>
    new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('PUT', url);
      xhr.setRequestHeader('content-type', 'application/pdf');
      xhr.upload.addEventListener('progress', (e) => {
        if (e.lengthComputable) progress(e.loaded, e.total);
      });
      xhr.addEventListener('load', () =>
        xhr.status >= 200 && xhr.status < 300 ? resolve() : reject(new Error(`put ${xhr.status}`)),
      );
      xhr.addEventListener('error', () => reject(new Offline('put')));
      xhr.addEventListener('timeout', () => reject(new Offline('put')));
      xhr.send(file);
    });

  const withProof = (solution) => {
    if (!solution) return;
    const action = new URL(form.action);
    action.searchParams.set('pow', solution);
    form.action = action.toString();
  };

  form.addEventListener('submit', async (event) => {
    if (sending) {
      event.preventDefault();
      return;
    }
    const file = input.files?.[0];
    if (file && file.size > max) {
      event.preventDefault();
      input.setCustomValidity(document.getElementById('cv-hint').textContent);
      input.reportValidity();
      input.setCustomValidity('');
      return;
    }
    event.preventDefault();
    setSending(true);
    const token = form.elements.csrf.value;
    const pageBits = Number(form.dataset.powBits) || 0;
    // Asked on the page: found while the file uploads.
    let solving = pageBits ? solve(token, pageBits) : null;
    try {
      if (file) {
        let slot;
        try {
          slot = await slotFor(file);
        } catch (error) {
          if (error instanceof Offline) throw error;
          // The slot was refused: the plain post carries the file and the service says why.
          input.disabled = false;
          form.submit();
          return;
        }
        if (!solving && slot.powBits) solving = solve(token, Number(slot.powBits));
        shownTenth = -1;
        progress(0, file.size);
        upload.hidden = false;
        try {
          await put(slot.uploadUrl, file);
        } catch (error) {
          if (error instanceof Offline) throw error;
          input.disabled = false;
          form.submit();
          return;
        }
        progress(file.size, file.size);
        form.elements.uploadId.value = slot.uploadId;
        form.elements.cvName.value = file.name;
        input.disabled = true;
      }
      if (solving) {
        status.textContent = button.dataset.checking;
        // A failed search posts without a proof: the service then waits instead.
        withProof(await solving.catch(() => null));
      }
      form.submit();
    } catch {
      input.disabled = false;
      setSending(false);
      status.textContent = button.dataset.failed;
      status.classList.add('failed');
      button.focus();
    }
  });

  // Back from the next page (the page restored as it was left): the form is usable again.
  window.addEventListener('pageshow', (event) => {
    if (!event.persisted) return;
    input.disabled = false;
    setSending(false);
  });
})();
