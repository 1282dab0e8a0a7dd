/**
 * "Export progress" wherever a page offers it (the progress page, "continue on my computer" beside an
 * exercise): the progress and the saved code of the given exercises, downloaded as one file.
 */
import { loadSavedCode } from '../storage/saved-code.ts';
import { pageProgress } from './browser-store.ts';
import { downloadText } from './download.ts';
import { buildProgressFile, type SavedCodeMap } from './transfer.ts';

/** The saved code of every exercise in `ids` that has some. */
export function savedCodeOf(ids: readonly string[]): SavedCodeMap {
  const { storage } = pageProgress();
  return Object.fromEntries(
    ids.flatMap((id) => {
      const code = loadSavedCode(storage, id);
      return code ? [[id, code]] : [];
    }),
  );
}

/** Downloads the progress file; returns its name, for the page to say what it saved. */
export function downloadProgress(exerciseIds: readonly string[], now = new Date()): string {
  const name = `course-progress-${now.toISOString().slice(0, 10)}.json`;
  downloadText(name, JSON.stringify(buildProgressFile(pageProgress().store.progress, savedCodeOf(exerciseIds), now), null, 2));
  return name;
}
