// Runs before a prerendered page (docs/decisions/0020) is first painted. The page is drawn in Korean and the
// light theme; someone who chose English or dark mode (kept in this browser only, never sent to the server:
// a language or theme choice would be one more trait to tell a reporter apart) would see it switch under them
// when the app starts. For them the page stays hidden until the app has drawn it in their choice. The keys
// are those of apps/web/src/lib/i18n.ts and color-mode.ts.
try {
  if (localStorage.getItem('ansim.language') === 'en' || localStorage.getItem('ansim.colorMode') === 'dark')
    document.documentElement.classList.add('prerender-hidden');
} catch {
  // Storage refused: nothing was chosen here, so the page is drawn as chosen.
}
