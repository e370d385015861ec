// Inside the careers embed's iframe: tells the host page how tall this page is, whenever that
// changes, so the iframe fits its content. Only the height and a type leave the frame; the
// host's script checks where the message comes from and its shape.
(() => {
  if (window.parent === window) return;
  const ancestors = window.location.ancestorOrigins;
  // Chromium and Safari name the host's origin; elsewhere the message (a number) goes to any.
  const target = ancestors && ancestors.length > 0 ? ancestors[0] : '*';
  let last = 0;
  const report = () => {
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    window.parent.postMessage({ type: 'careers-embed:height', height }, target);
  };
  new ResizeObserver(report).observe(document.documentElement);
  window.addEventListener('load', report);
  // A new page in the frame (a job, the form): the host scrolls the frame's top into view.
  window.parent.postMessage({ type: 'careers-embed:page' }, target);
  report();
})();
