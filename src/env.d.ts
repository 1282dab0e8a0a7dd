declare namespace App {
  interface Locals {
    /** The language of the page being rendered, for components embedded in lessons. */
    lang?: import('./i18n/langs.ts').Lang;
  }
}
