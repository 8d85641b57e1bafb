// The widget's methods as seen from page.evaluate callbacks (the page runs the altcha web component).
interface AltchaWidgetDom extends HTMLElement {
  getState?: () => string;
}

interface HTMLElementTagNameMap {
  'altcha-widget': AltchaWidgetDom;
}
