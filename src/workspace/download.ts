/**
 * "Download my files": one editable file is saved under its own name; several (service-chain's a.ts,
 * b.ts, c.ts) as one zip named after the exercise, each file at its path, so the browser asks once and
 * the files arrive together. Zipped with fflate, loaded only for that click (docs/workspace.md says why).
 */

export interface Download {
  name: string;
  blob: Blob;
}

/** What the learner gets for these files: the file itself, or `<exerciseId>.zip` holding them all. */
export async function downloadOf(exerciseId: string, files: Record<string, string>): Promise<Download> {
  const entries = Object.entries(files);
  if (entries.length === 1) {
    const [path, text] = entries[0]!;
    return { name: path.split('/').pop()!, blob: new Blob([text], { type: 'text/typescript;charset=utf-8' }) };
  }
  const { strToU8, zipSync } = await import('fflate'); // not on the page until needed (page weight: docs/benchmarks.md#benchpage)
  // A fixed date, so the same files always make the same bytes; level 6 as zip tools default to.
  const zipped = zipSync(Object.fromEntries(entries.map(([path, text]) => [path, [strToU8(text), { mtime: new Date(2000, 0, 1) }]])), { level: 6 });
  return { name: `${exerciseId}.zip`, blob: new Blob([zipped as Uint8Array<ArrayBuffer>], { type: 'application/zip' }) };
}

export async function downloadFiles(exerciseId: string, files: Record<string, string>): Promise<void> {
  const { name, blob } = await downloadOf(exerciseId, files);
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
