/**
 * <course-lab>: the light part of a lab, loaded with the lesson. The server-rendered lab already shows
 * the default figures, tables and timeline; this element loads the charts, the controller and the
 * Web Worker only when the lab comes near the viewport, when the learner first touches it, or at once
 * when the page was opened from a shareable link to it. The learner's first touch (or the link) also
 * tells progress that they opened the lab, so an assignment's "open the lab" shows done.
 */
import { reportLabOpened } from '../progress/exercise-events.ts';

type Controller = { destroy(): void };

const TOUCHES = ['focusin', 'pointerdown', 'input', 'keydown'] as const;

export class CourseLab extends HTMLElement {
  #loading?: Promise<Controller | undefined>;
  #observer?: IntersectionObserver;
  #controller?: Controller;

  connectedCallback(): void {
    const sim = this.dataset.sim ?? '';
    const linked = location.hash.startsWith(`#lab-${sim}`) && (location.hash.length === sim.length + 5 || location.hash[sim.length + 5] === '?');
    if (linked) {
      // Said once the page's scripts have run, so progress is listening.
      if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', () => reportLabOpened(sim), { once: true });
      else reportLabOpened(sim);
      this.activate();
      this.scrollIntoView({ block: 'start' });
      return;
    }
    const wake = (): void => void this.activate();
    const touched = (): void => {
      for (const type of TOUCHES) this.removeEventListener(type, touched);
      reportLabOpened(sim);
      wake();
    };
    // Coming near the viewport only loads it; a touch is what "opened" means.
    for (const type of TOUCHES) this.addEventListener(type, touched, { passive: true });
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
