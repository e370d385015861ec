// The console's copy buttons (progressive enhancement: without this script the secret sits in a
// readonly field, selected on focus, to copy by hand). Each button names its field in data-copy.
(() => {
  for (const field of document.querySelectorAll('.secret-field')) {
    field.addEventListener('focus', () => field.select());
  }
  for (const button of document.querySelectorAll('button[data-copy]')) {
    const field = document.getElementById(button.dataset.copy);
    const status = document.getElementById(`${button.dataset.copy}-status`);
    if (!field) continue;
    button.hidden = false;
    button.addEventListener('click', async () => {
      field.select();
      let copied = false;
      try {
        await navigator.clipboard.writeText(field.value);
        copied = true;
      } catch {
        copied = document.execCommand?.('copy') ?? false;
      }
      if (status) status.textContent = copied ? 'Copied.' : 'Select the text and copy it by hand.';
    });
  }
})();
