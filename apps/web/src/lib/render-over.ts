import { type ComponentChild, render } from 'preact';

/**
 * Renders the app over a prerendered page (decision 0020), keeping its elements: Preact's own render diffs
 * against the children already in the container, patching their attributes and text where the browser's first
 * render differs from the server's (a logged-in header, another language). React-compat's createRoot and hydrate
 * are no use here: the one empties the container first (the page would blink and repaint), the other trusts the
 * server's attributes and would keep them where they differ.
 */
export function renderOver(node: React.ReactNode, container: Element): void {
  render(node as ComponentChild, container);
}
