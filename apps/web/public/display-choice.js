// Runs before a prerendered page (docs/decisions/0020) is first painted. The page is drawn in Korean and the
// light theme; someone who chose English or dark mode (kept in this browser only, never sent to the server:
// a language or theme choice would be one more trait to tell a reporter apart) would see it switch under them
// when the app starts. For them the page stays hidden until the app has drawn it in their choice. The keys
// are those of apps/web/src/lib/i18n.ts and color-mode.ts.
//
// A member page (docs/decisions/0023) comes drawn once per report type, because the draft's type never leaves
// the browser either: this shows the variant the draft names, on the wizard's first step, to someone whose
// session the app holds for live (lib/login-state.ts, stores/report-form-store.ts, lib/step-address.ts). Any
// other case shows none, and the app draws the page as it does without a prerender. Once the document is
// parsed, the shown variant's elements take its wrapper's place and the others go: the document then holds one
// page, with each id once, for the app to render over (src/main.tsx waits for this).
(() => {
  const root = document.documentElement;
  const { variants } = document.currentScript.dataset;
  try {
    if (
      localStorage.getItem('ansim.language') === 'en' ||
      localStorage.getItem('ansim.colorMode') === 'dark'
    ) {
      root.classList.add('prerender-hidden');
      return;
    }
    if (!variants) return;
    const stored = (key) => JSON.parse(localStorage.getItem(`ansim.reportDraft.${key}`) ?? 'null');
    const type = stored('report_type');
    const step = new URLSearchParams(location.search).get('step');
    const atFirstStep = step === null ? !stored('step') : step === '1';
    const isLoggedIn = Number(localStorage.getItem('loginExpires')) > Date.now() / 1000;
    if (isLoggedIn && atFirstStep && variants.split(' ').includes(type)) root.dataset.prerenderVariant = type;
  } catch {
    // Storage refused, or a value that is not JSON: nothing chosen here is shown, and the app draws the page.
  } finally {
    if (variants) document.addEventListener('DOMContentLoaded', keepShownVariant, { once: true });
  }

  function keepShownVariant() {
    const shown = root.dataset.prerenderVariant;
    for (const variant of document.querySelectorAll('#root > [data-prerender-variant]')) {
      if (variant.dataset.prerenderVariant === shown) variant.replaceWith(...variant.childNodes);
      else variant.remove();
    }
    delete root.dataset.prerenderVariant;
  }
})();
