import { markdownToHtml } from 'satteri';
import { describe, expect, it } from 'vitest';
import { glossaryLinks, lessonLang } from './satteri-plugin.ts';
import { glossarySchema } from './schema.ts';

const glossary = glossarySchema.parse({
  entries: [
    {
      id: 'retry',
      en: { term: 'retry', definition: 'Sending a request again after it failed.', match: ['retry'] },
      vi: { term: 'retry', definition: 'Gửi lại một request sau khi nó lỗi.', match: ['retry'] },
    },
  ],
});

// `await`: the result type allows for async plugins; this one is synchronous.
const html = async (md: string, path: string) =>
  (await markdownToHtml(md, { mdastPlugins: [glossaryLinks(glossary)], fileURL: new URL(`file:///course${path}`) })).html;

describe('glossaryLinks', () => {
  it('links the first mention in the body to the glossary page of the lesson’s language, with the definition as title', async () => {
    const out = await html('# Why retry\n\nSee [the retry helper](/x/). A `retry()` call. Then a retry, and another retry.\n', '/content/lessons/vi/a/b.mdx');
    expect(out).toContain('<h1>Why retry</h1>');
    expect(out).toContain('<a href="/x/">the retry helper</a>');
    expect(out).toContain('<code>retry()</code>');
    expect(out).toContain(
      'Then a <a href="/vi/glossary/#retry" title="Gửi lại một request sau khi nó lỗi." class="glossary-term">retry</a>, and another retry.',
    );
    expect(out.match(/glossary-term/g)).toHaveLength(1);
  });

  it('leaves files that are not lessons alone', async () => {
    expect(await html('A retry.', '/README.md')).toBe('<p>A retry.</p>\n');
  });

  it('reads the language from the lesson path', () => {
    expect(lessonLang(new URL('file:///r/content/lessons/en/timeouts/why-timeouts.mdx'))).toBe('en');
    expect(lessonLang(new URL('file:///r/content/lessons/fr/x.mdx'))).toBeUndefined();
    expect(lessonLang(undefined)).toBeUndefined();
  });
});
