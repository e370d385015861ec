// The hosted apply form's enhancement: checks the file before sending, and sends it to a presigned
// upload slot (as an integrator's page would), then submits the form without the file. Any failure
// falls back to the plain form post.
(() => {
  const form = document.getElementById('apply-form');
  if (!form || !window.fetch) return;
  const status = document.getElementById('apply-status');
  const input = document.getElementById('cv');
  const max = Number(form.dataset.maxBytes);
  let sending = false;
  form.addEventListener('submit', async (event) => {
    if (sending) return;
    const file = input.files?.[0];
    if (!file) return;
    if (file.size > max) {
      event.preventDefault();
      input.setCustomValidity(document.getElementById('cv-hint').textContent);
      input.reportValidity();
      input.setCustomValidity('');
      return;
    }
    event.preventDefault();
    sending = true;
    status.textContent = '…';
    try {
      const jobId = form.action.split('/').pop();
      const slot = await fetch(`/apply/${jobId}/upload`, {
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
      form.elements.uploadId.value = uploadId;
      input.disabled = true;
    } catch {
      form.elements.uploadId.value = '';
      input.disabled = false;
    }
    form.submit();
  });
})();
