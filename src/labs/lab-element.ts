/**
 * <course-lab>: the light part of a lab, loaded with the lesson. The server-rendered lab already shows
 * the default figures, tables and timeline; this element loads the charts, the controller and the
 * Web Worker only when the lab comes near the viewport, when the learner first touches it, or at once
 * when the page was opened from a shareable link to it.
 */
type Controller = { destroy(): void };

export class CourseLab extends HTMLElement {
  #loading?: Promise<Controller | undefined>;
  #observer?: IntersectionObserver;
  #controller?: Controller;

  connectedCallback(): void {
    const sim = this.dataset.sim ?? '';
    const linked = location.hash.startsWith(`#lab-${sim}`) && (location.hash.length === sim.length + 5 || location.hash[sim.length + 5] === '?');
    if (linked) {
      this.activate();
      this.scrollIntoView({ block: 'start' });
      return;
    }
    const wake = (): void => void this.activate();
    for (const type of ['focusin', 'pointerdown', 'input', 'keydown']) this.addEventListener(type, wake, { once: true, passive: true });
    if ('IntersectionObserver' in window) {
      this.#observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && wake(), { rootMargin: '400px 0px' });
      this.#observer.observe(this);
    }
  }

  disconnectedCallback(): void {
    this.#observer?.disconnect();
    this.#controller?.destroy();
  }

  /** Load and start the controller once; resolves when it runs. */
  activate(): Promise<Controller | undefined> {
    this.#observer?.disconnect();
    this.#loading ??= import('./lab-controller.ts')
      .then((m) => (this.#controller = m.startLab(this)))
      .catch((error: unknown) => {
        console.warn('The lab could not start:', error);
        this.#loading = undefined;
        return undefined;
      });
    return this.#loading;
  }
}
