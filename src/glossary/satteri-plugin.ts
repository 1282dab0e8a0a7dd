/**
 * The build step that links a lesson's first mention of each glossary term to the glossary page.
 * An mdast plugin for the Sätteri Markdown processor (astro.config.mjs): the factory runs once per
 * document, so each lesson starts with nothing seen. Only lessons are touched (their language is
 * read from content/lessons/<lang>/…); headings, existing links and code are left alone.
 */
import { defineMdastPlugin, type MdastPluginEntry } from 'satteri';
import { isLang, type Lang } from '../i18n/index.ts';
import { linkFirstMentions, termMatcher, type TermMatcher } from './match.ts';
import { glossaryHref, type Glossary } from './schema.ts';

const SKIP_INSIDE = new Set(['heading', 'link', 'linkReference', 'mdxJsxTextElement']);

export function lessonLang(fileURL: URL | undefined): Lang | undefined {
  const match = fileURL && /\/content\/lessons\/([a-z]+)\//.exec(decodeURIComponent(fileURL.pathname));
  return match && isLang(match[1]) ? match[1] : undefined;
}

export function glossaryLinks(glossary: Glossary): MdastPluginEntry {
  const matchers = new Map<Lang, TermMatcher>();
  const matcherFor = (lang: Lang) => matchers.get(lang) ?? matchers.set(lang, termMatcher(glossary, lang)).get(lang)!;
  return ({ fileURL }) => {
    const lang = lessonLang(fileURL);
    if (!lang) return null;
    const matcher = matcherFor(lang);
    const seen = new Set<string>();
    return defineMdastPlugin({
      name: 'glossary-links',
      text(node, ctx) {
        let parent: { type: string } | undefined = ctx.parent(node);
        while (parent) {
          if (SKIP_INSIDE.has(parent.type)) return;
          parent = ctx.parent(parent as Parameters<typeof ctx.parent>[0]);
        }
        const segments = linkFirstMentions(node.value, matcher, seen);
        if (!segments.some((s) => s.entryId)) return;
        ctx.replaceNode(
          node,
          segments.map((s) =>
            s.entryId
              ? {
                  type: 'link' as const,
                  url: glossaryHref(lang, s.entryId),
                  title: matcher.definition.get(s.entryId) ?? null,
                  data: { hProperties: { className: ['glossary-term'] } },
                  children: [{ type: 'text' as const, value: s.text }],
                }
              : { type: 'text' as const, value: s.text },
          ),
        );
      },
    });
  };
}
