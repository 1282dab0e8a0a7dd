/**
 * The learner's code as tokens, for the checks that read it (review.ts, similarity.ts): TypeScript's
 * own scanner, run once over the text, never a parser (a file that does not parse still has tokens,
 * and nothing recurses however deeply the code nests). Comments and whitespace are dropped; a string
 * is its value. Every character is scanned at most twice (a `/` or a `}` is scanned again as a regular
 * expression or the rest of a template), so the work is linear in the text, which is capped.
 */
import { createRequire } from 'node:module';
import type * as TS from 'typescript';

export type TokenKind = 'word' | 'keyword' | 'punct' | 'string' | 'number' | 'regex' | 'other';

export interface Token {
  kind: TokenKind;
  /**
   * The word or punctuation as written; a string's value; a number or regular expression as written.
   * A `keyword` is a reserved word; a contextual one (`as`, `from`, `of`, `number`) is a `word`.
   */
  text: string;
}

/** No more of a learner's code is scanned (the submission file itself is at most 1,000,000 bytes). */
export const MAX_SCANNED_CHARS = 1_000_000;

let loaded: typeof TS | undefined;
// Loaded on first use: the TypeScript package is large, and most importers of this folder never scan.
const ts = () => (loaded ??= createRequire(import.meta.url)('typescript') as typeof TS);

// `yield` and `await` are words (they can name variables outside generators and modules), the rest reserved.
const REGEX_AFTER = new Set(['return', 'typeof', 'instanceof', 'in', 'new', 'delete', 'void', 'throw', 'case', 'do', 'else', 'yield', 'await']);

export function tokenize(text: string): Token[] {
  const t = ts();
  const K = t.SyntaxKind;
  const capped = text.length > MAX_SCANNED_CHARS ? text.slice(0, MAX_SCANNED_CHARS) : text;
  const scanner = t.createScanner(t.ScriptTarget.Latest, true, t.LanguageVariant.Standard, capped);
  const out: Token[] = [];
  // What each open bracket opened, to read a `/` after its closing one as JavaScript does: after the
  // `)` of `if (…)` or the `}` of a block a regular expression may start; after a value, a division.
  const open: Opened[] = [];
  let afterClose: 'regex' | 'divide' = 'divide';
  for (let kind = scanner.scan(); kind !== K.EndOfFileToken; kind = scanner.scan()) {
    const prev = out[out.length - 1];
    if (kind === K.CloseBraceToken && open[open.length - 1] === 'template') {
      open.pop();
      kind = scanner.reScanTemplateToken(false);
    } else if ((kind === K.SlashToken || kind === K.SlashEqualsToken) && regexAfter(prev, afterClose)) {
      kind = scanner.reScanSlashToken();
    }
    if (kind === K.OpenParenToken) open.push(prev?.kind === 'keyword' && STATEMENT_HEADS.has(prev.text) ? 'head' : 'group');
    else if (kind === K.OpenBracketToken) open.push('group');
    else if (kind === K.OpenBraceToken) open.push(opensBlock(prev) ? 'block' : 'group');
    else if (kind === K.TemplateHead) open.push('template');
    else if (kind === K.TemplateMiddle) open.push('template');
    else if (kind === K.CloseParenToken || kind === K.CloseBracketToken || kind === K.CloseBraceToken) {
      const opened = open.pop();
      afterClose = opened === 'head' || opened === 'block' ? 'regex' : 'divide';
    }
    out.push(token(t, kind, scanner));
  }
  return out;
}

type Opened = 'head' | 'group' | 'block' | 'template';
const STATEMENT_HEADS = new Set(['if', 'while', 'for', 'with']);
const BLOCK_AFTER_PUNCT = new Set([')', ';', '{', '}', '=>']);
const BLOCK_AFTER_WORD = new Set(['else', 'do', 'try', 'finally']);

/** Whether a `{` after `prev` opens a block (a statement may follow its `}`) rather than an object. */
const opensBlock = (prev: Token | undefined) =>
  prev === undefined || (prev.kind === 'punct' && BLOCK_AFTER_PUNCT.has(prev.text)) || (prev.kind === 'keyword' && BLOCK_AFTER_WORD.has(prev.text));

/**
 * A `/` starts a regular expression after an operator, an opening bracket, a word such as `return`,
 * the `)` of a statement's head or the `}` of a block; after a value (a name, a contextual keyword used
 * as one, a literal, another `)`, `]` or `}`) it divides.
 */
function regexAfter(prev: Token | undefined, afterClose: 'regex' | 'divide'): boolean {
  if (prev === undefined) return true;
  if (prev.kind === 'punct') return prev.text === ')' || prev.text === '}' ? afterClose === 'regex' : prev.text !== ']';
  return (prev.kind === 'keyword' || prev.kind === 'word') && REGEX_AFTER.has(prev.text);
}

function token(t: typeof TS, kind: TS.SyntaxKind, scanner: TS.Scanner): Token {
  const K = t.SyntaxKind;
  if (kind === K.Identifier || kind === K.PrivateIdentifier) return { kind: 'word', text: scanner.getTokenValue() };
  // Only reserved words are keywords: `as`, `from`, `assert` or `number` may also name a variable.
  if (kind >= K.FirstKeyword && kind <= K.LastKeyword) return { kind: scanner.isReservedWord() ? 'keyword' : 'word', text: scanner.getTokenText() };
  if (kind === K.StringLiteral || (kind >= K.FirstTemplateToken && kind <= K.LastTemplateToken)) return { kind: 'string', text: scanner.getTokenValue() };
  if (kind === K.NumericLiteral || kind === K.BigIntLiteral) return { kind: 'number', text: scanner.getTokenText() };
  if (kind === K.RegularExpressionLiteral) return { kind: 'regex', text: scanner.getTokenText() };
  if (kind >= K.FirstPunctuation && kind <= K.LastPunctuation) return { kind: 'punct', text: scanner.getTokenText() };
  return { kind: 'other', text: scanner.getTokenText() };
}
