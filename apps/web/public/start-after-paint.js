// A prerendered page (docs/decisions/0020) starts the app only once its HTML has been painted: on a phone's
// slow connection the page's style sheet and fonts then have the line to themselves, and the first paint never
// waits on ~150 KB of scripts. The server names the entry module and the modules it imports on this element.
(() => {
  const { entry, preload = '' } = document.currentScript.dataset;
  let started = false;
  // Each request costs the main thread about a millisecond (a few on a phone): twenty preloads in one task
  // would block a tap for as long. A few per task keep every task short; all are asked for well before the
  // entry module arrives and asks for its imports, which then find them already on their way.
  const PRELOADS_PER_TASK = 4;
  const preloadFrom = (hrefs, index) => {
    for (const href of hrefs.slice(index, index + PRELOADS_PER_TASK)) {
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = href;
      document.head.append(link);
    }
    if (index + PRELOADS_PER_TASK < hrefs.length)
      setTimeout(() => preloadFrom(hrefs, index + PRELOADS_PER_TASK));
  };
  const start = () => {
    if (started) return;
    started = true;
    const script = document.createElement('script');
    script.type = 'module';
    script.crossOrigin = '';
    script.src = entry;
    document.head.append(script);
    setTimeout(() => preloadFrom(preload.split(' ').filter(Boolean), 0));
  };
  const root = document.documentElement;
  const showsNothing =
    root.classList.contains('prerender-hidden') ||
    (document.querySelector('#root > [data-prerender-variant]') && !root.dataset.prerenderVariant);
  const reportsPaint = window.PerformanceObserver?.supportedEntryTypes?.includes('paint');
  if (showsNothing || !reportsPaint) {
    // Nothing of the page will be painted before the app draws it, or the browser does not say when it paints:
    // start as soon as a frame has gone by.
    requestAnimationFrame(() => setTimeout(start));
  } else {
    // Once the browser reports the page's first contentful paint, which it does when the frame is on screen: an
    // animation frame comes before its paint, and a busy phone can take longer to show it than to run a timer.
    new PerformanceObserver((entries, observer) => {
      if (!entries.getEntriesByName('first-contentful-paint').length) return;
      observer.disconnect();
      setTimeout(start);
    }).observe({ type: 'paint', buffered: true });
  }
  // A tab opened in the background paints nothing and runs no animation frame until it is shown.
  setTimeout(start, 1000);
})();
