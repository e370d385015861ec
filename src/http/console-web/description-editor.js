// The job form's description toolbar: buttons that wrap the selected text of the description box
// in the HTML the sanitiser keeps. The form works without it (the box takes the HTML as typed).
(() => {
  const box = document.getElementById('description');
  const bar = document.getElementById('description-toolbar');
  if (!box || !bar) return;
  const wrap = (before, after, empty) => {
    const start = box.selectionStart;
    const end = box.selectionEnd;
    const chosen = box.value.slice(start, end) || empty;
    box.setRangeText(before + chosen + after, start, end, 'select');
    box.setSelectionRange(start + before.length, start + before.length + chosen.length);
    box.focus();
    box.dispatchEvent(new Event('input', { bubbles: true }));
  };
  const list = (tag) => () => {
    const text = box.value.slice(box.selectionStart, box.selectionEnd) || 'First point\nSecond point';
    const items = text
      .split(/\r?\n/)
      .filter((line) => line.trim() !== '')
      .map((line) => `  <li>${line.trim()}</li>`)
      .join('\n');
    box.setRangeText(`<${tag}>\n${items}\n</${tag}>`, box.selectionStart, box.selectionEnd, 'select');
    box.focus();
  };
  const actions = [
    ['Bold', () => wrap('<strong>', '</strong>', 'bold text')],
    ['Italic', () => wrap('<em>', '</em>', 'italic text')],
    ['Heading', () => wrap('<h2>', '</h2>', 'Heading')],
    ['Paragraph', () => wrap('<p>', '</p>', 'Paragraph')],
    ['Bulleted list', list('ul')],
    ['Numbered list', list('ol')],
    [
      'Link',
      () => {
        const url = window.prompt('Link to (https:// or mailto:)', 'https://');
        if (url && /^(https?:\/\/|mailto:)/i.test(url.trim())) {
          wrap(`<a href="${url.trim().replaceAll('"', '%22')}">`, '</a>', 'link text');
        }
      },
    ],
  ];
  for (const [label, act] of actions) {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = label;
    button.setAttribute('aria-controls', 'description');
    button.addEventListener('click', act);
    bar.append(button);
  }
  bar.setAttribute('role', 'toolbar');
  bar.setAttribute('aria-label', 'Format the description');
  bar.hidden = false;
})();

// The questions fieldset: each row shows only the fields its answer type uses (choices for the
// two lists, bounds for a number, a longest answer for text). Without the script every field shows.
(() => {
  const uses = {
    options: ['single_select', 'multi_select'],
    min: ['number'],
    max: ['number'],
    maxLength: ['short_text', 'long_text'],
  };
  const fit = (row) => {
    const type = row.querySelector('select[id$="-type"]')?.value;
    for (const [name, types] of Object.entries(uses)) {
      const field = row.querySelector(`.q-${name}`);
      if (field) field.hidden = !types.includes(type) && !field.querySelector('[aria-invalid]');
    }
  };
  for (const row of document.querySelectorAll('li.question')) {
    fit(row);
    row.querySelector('select[id$="-type"]')?.addEventListener('change', () => fit(row));
  }
})();
