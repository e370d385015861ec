// The applications table's enhancement (the page works without it): a "select all on this page"
// box in the table's head and a live count of the selected applications beside the move button.
(() => {
  const table = document.querySelector('table.apps');
  const status = document.getElementById('selected-count');
  if (!table || !status) return;
  const boxes = () => Array.from(table.querySelectorAll('tbody input[type=checkbox]'));
  const head = table.querySelector('thead th');
  const all = document.createElement('input');
  all.type = 'checkbox';
  all.id = 'select-all';
  const label = document.createElement('label');
  label.htmlFor = 'select-all';
  label.className = 'hp';
  label.textContent = 'Select every application on this page';
  head.replaceChildren(all, label);
  const update = () => {
    const chosen = boxes().filter((box) => box.checked).length;
    status.textContent = chosen === 0 ? '' : `${chosen} selected`;
    all.checked = chosen > 0 && chosen === boxes().length;
    all.indeterminate = chosen > 0 && chosen < boxes().length;
  };
  all.addEventListener('change', () => {
    for (const box of boxes()) box.checked = all.checked;
    update();
  });
  table.addEventListener('change', (event) => {
    if (event.target !== all) update();
  });
})();
