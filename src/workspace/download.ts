/** "Download my files": each editable file saved under its own name. */
export function downloadFiles(files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/typescript;charset=utf-8' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = path.split('/').pop()!;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }
}
