declare namespace App {
  /** Set by src/middleware.ts on every page under /[lang]/; read them through pageLocals(Astro). */
  interface Locals {
    /** The language of the page being rendered. */
    lang?: import('./i18n/index.ts').Lang;
    /** The UI translator for that language: t('home.start'), t('home.lessonCount', { count: 3 }). */
    t?: import('./i18n/ui/index.ts').UiTranslator;
  }
}
