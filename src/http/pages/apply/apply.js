// The hosted apply form's enhancement: checks the file before sending, sends it to a presigned
// upload slot (as an integrator's page would) while it finds the proof of work the service asks
// for after a burst of applications, then submits the form without the file. Any failure falls
// back to the plain form post, which works without this script.
(() => {
  const form = document.getElementById('apply-form');
  if (!form || !window.fetch) return;
  const status = document.getElementById('apply-status');
  const input = document.getElementById('cv');
  const max = Number(form.dataset.maxBytes);
  const bits = Number(form.dataset.powBits) || 0;
  let sending = false;

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
  const solve = async (token) => {
    if (!bits || !window.crypto?.subtle) return null;
    const encoder = new TextEncoder();
    for (let n = 0; n < 1e8; n += 1) {
      const digest = await crypto.subtle.digest('SHA-256', encoder.encode(`${token}:${n}`));
      if (zeroBits(new Uint8Array(digest)) >= bits) return String(n);
    }
    return null;
  };

  const upload = async (file) => {
    const slot = await fetch(`/apply/${encodeURIComponent(form.dataset.jobId)}/upload`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      credentials: 'same-origin',
      body: JSON.stringify({ bytes: file.size, csrf: form.elements.csrf.value }),
    });
    if (!slot.ok) throw new Error('slot');
    const { uploadId, uploadUrl } = await slot.json();
    const put = await fetch(uploadUrl, {
      method: 'PUT',
      headers: { 'content-type': 'application/pdf' },
      body: file,
    });
    if (!put.ok) throw new Error('put');
    return uploadId;
  };

  form.addEventListener('submit', async (event) => {
    if (sending) return;
    const file = input.files?.[0];
    if (file && file.size > max) {
      event.preventDefault();
      input.setCustomValidity(document.getElementById('cv-hint').textContent);
      input.reportValidity();
      input.setCustomValidity('');
      return;
    }
    event.preventDefault();
    sending = true;
    status.textContent = '…';
    const [uploaded, solution] = await Promise.allSettled([
      file ? upload(file) : Promise.resolve(null),
      solve(form.elements.csrf.value),
    ]);
    if (uploaded.status === 'fulfilled' && uploaded.value) {
      form.elements.uploadId.value = uploaded.value;
      form.elements.cvName.value = file.name;
      input.disabled = true;
    } else if (file) {
      // The slot or the PUT failed: the plain post carries the file instead.
      input.disabled = false;
    }
    if (solution.status === 'fulfilled' && solution.value) {
      const action = new URL(form.action);
      action.searchParams.set('pow', solution.value);
      form.action = action.toString();
    }
    form.submit();
  });
})();
