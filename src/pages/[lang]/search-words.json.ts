/**
 * /<lang>/search-words.json: the words of that language's lessons and glossary with their counts,
 * most frequent first. The search dialog fetches it only when a query finds nothing, to correct a
 * typo ("jiter" → "jitter"; src/site/search-suggest.ts).
 */
import type { APIRoute, GetStaticPaths } from 'astro';
import { getCollection } from 'astro:content';
import { loadGlossary } from '../../glossary/load.ts';
import { LANGS, type Lang } from '../../i18n/index.ts';
import { buildVocabulary, readableText } from '../../site/search-suggest.ts';

export const getStaticPaths: GetStaticPaths = () => LANGS.map((lang) => ({ params: { lang } }));

export const GET: APIRoute = async ({ params }) => {
  const lang = params.lang as Lang;
  const lessons = (await getCollection('lessons')).filter((l) => l.data.lang === lang);
  const glossary = loadGlossary().entries.map((e) => `${e[lang].term} ${e[lang].definition}`);
  const texts = [...lessons.map((l) => `${l.data.title} ${l.data.description} ${readableText(l.body ?? '')}`), ...glossary];
  return new Response(JSON.stringify(buildVocabulary(texts)), { headers: { 'content-type': 'application/json; charset=utf-8' } });
};
