/**
 * "Wrap long lines" in the exercise editor: off by default (code keeps its lines), and once the learner
 * turns it on or off, kept in this browser for every exercise page, in both languages.
 */
export const WRAP_KEY = 'course.editor.wrap';

type Store = Pick<Storage, 'getItem' | 'setItem'>;

export function readWrap(store: Store | undefined): boolean {
  try {
    return store?.getItem(WRAP_KEY) === 'on';
  } catch {
    return false; // storage disabled
  }
}

export function writeWrap(store: Store | undefined, on: boolean): void {
  try {
    store?.setItem(WRAP_KEY, on ? 'on' : 'off');
  } catch {
    // storage disabled: the choice lasts as long as the page
  }
}
