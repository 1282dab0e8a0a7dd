import { unzipSync, strFromU8 } from 'fflate';
import { describe, expect, test } from 'vitest';
import { downloadOf } from './download.ts';

describe('download my files', () => {
  test('one file is saved as itself', async () => {
    const d = await downloadOf('retry-helper', { 'retry.ts': 'export const x = 1;\n' });
    expect(d.name).toBe('retry.ts');
    expect(await d.blob.text()).toBe('export const x = 1;\n');
  });

  test('several files are one zip named after the exercise, each file whole at its path (UTF-8 kept)', async () => {
    const files = { 'a.ts': '// A gọi B\nexport const a = 1;\n', 'b.ts': 'export const b = 2;\n', 'c.ts': 'export const c = 3;\n' };
    const d = await downloadOf('service-chain', files);
    expect(d.name).toBe('service-chain.zip');
    expect(d.blob.type).toBe('application/zip');
    const bytes = new Uint8Array(await d.blob.arrayBuffer());
    expect(strFromU8(bytes.subarray(0, 2))).toBe('PK');
    const back = Object.fromEntries(Object.entries(unzipSync(bytes)).map(([p, b]) => [p, strFromU8(b)]));
    expect(back).toEqual(files);
    // The same files make the same bytes (no clock in the archive).
    expect(new Uint8Array(await (await downloadOf('service-chain', files)).blob.arrayBuffer())).toEqual(bytes);
  });
});
