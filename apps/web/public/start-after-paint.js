// A prerendered page (docs/decisions/0020) starts the app only once its HTML has been painted: on a phone's
// slow connection the page's style sheet and fonts then have the line to themselves, and the first paint never
// waits on ~150 KB of scripts. The server names the entry module and the modules it imports on this element.
(() => {
  const { entry, preload = '' } = document.currentScript.dataset;
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    for (const href of preload.split(' ').filter(Boolean)) {
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = href;
      document.head.append(link);
    }
    const script = document.createElement('script');
    script.type = 'module';
    script.crossOrigin = '';
    script.src = entry;
    document.head.append(script);
  };
  // The frame after the first one: the page has been painted by then.
  requestAnimationFrame(() => setTimeout(start));
  // A tab opened in the background paints nothing and runs no animation frame until it is shown.
  setTimeout(start, 1000);
})();
