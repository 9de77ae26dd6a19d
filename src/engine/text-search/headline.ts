// ts_headline as PostgreSQL 15 builds it: the document's every token (blanks, tags and the parts of
// hyphenated words included, as ts_parse.c's hlparsetext keeps them), each lexeme a query operand
// finds marked; then the default parser's selector (wparser_def.c's prsd_headline: the best cover
// of the query, stretched to MinWords..MaxWords and ended on a word longer than ShortWord, or
// MaxFragments fragments) and the text of the chosen words with StartSel/StopSel around the
// marked ones (generateHeadline).
// (PostgreSQL 15's hlCover tries each range from each found word, up to max_cover words: 16 finds
// covers by the query's locations instead, which can choose other fragments.)
import { sqlStateError } from '../../errors';
import { type Config, lexize } from './configs';
import { type Operand, type PhraseData, operands, tsExecute } from './match';
import { type TokenType, parseText } from './parser';
import type { TsQuery } from './tsquery';
import { MAX_POS } from './tsvector';

interface Word {
  type: TokenType;
  text: string;
  /** its length in bytes (ShortWord counts bytes) */
  len: number;
  /** its lexeme's position (0 when it has none) */
  pos: number;
  item: Operand | null;
  /** a copy for a second operand the same lexeme finds: found, but neither counted nor printed */
  repeated: boolean;
  selected: boolean;
  in: boolean;
  replace: boolean;
  skip: boolean;
}

/** hlparsetext: the tokens, each indexed one's lexemes looked up among the query's operands (hlfinditem). */
function parseWords(config: Config, text: string, query: TsQuery): Word[] {
  const items = query ? operands(query) : [];
  const words: Word[] = [];
  let pos = 0;
  for (const t of parseText(text)) {
    const len = Buffer.byteLength(t.text);
    if (len >= 2047) continue; // (PostgreSQL: NOTICE word is too long to be indexed)
    const word: Word = {
      type: t.type,
      text: t.text,
      len,
      pos: 0,
      item: null,
      repeated: false,
      selected: false,
      in: false,
      replace: false,
      skip: false,
    };
    words.push(word);
    const lexemes = lexize(config, t.type, t.text);
    if (lexemes === null) continue;
    pos++;
    for (const lexeme of lexemes) {
      word.pos = Math.min(pos, MAX_POS);
      for (const item of items) {
        if (item.prefix ? !lexeme.startsWith(item.word) : lexeme !== item.word) continue;
        if (word.item) words.push({ ...word, item, repeated: true });
        else word.item = item;
      }
    }
  }
  return words;
}

const NONWORD = new Set<TokenType>(['blank', 'tag', 'url', 'numhword', 'asciihword', 'hword']);
const NOEND = new Set<TokenType>([...NONWORD, 'sfloat', 'version', 'float', 'int', 'uint', 'protocol', 'entity']);
/** Printed by their parts (a URL by its host and path, a hyphenated word by its words). */
const SKIPPED = new Set<TokenType>(['url', 'numhword', 'asciihword', 'hword']);

/** The words of `from..to` an operand found (checkcondition_HL): their positions, ascending. */
function checkWords(words: Word[], from: number, to: number) {
  return (n: Operand, data: PhraseData | null) => {
    for (let i = from; i <= to; i++) {
      if (words[i].item !== n) continue;
      if (!data) return 'yes' as const;
      if (data.pos.length === 0 || data.pos[data.pos.length - 1] < words[i].pos) data.pos.push(words[i].pos);
    }
    return data && data.pos.length > 0 ? ('yes' as const) : ('no' as const);
  };
}

interface Options {
  minWords: number;
  maxWords: number;
  shortWord: number;
  maxFragments: number;
  highlightAll: boolean;
  startSel: string;
  stopSel: string;
  fragmentDelimiter: string;
}

/** pg_strtoint32, as the options' numbers are read. */
function int32(s: string): number {
  const m = /^[ \t\n\r\f\v]*([+-]?[0-9]+)[ \t\n\r\f\v]*$/.exec(s);
  if (!m) throw sqlStateError('22P02', `invalid input syntax for type integer: "${s}"`);
  const n = Number(m[1]);
  if (n < -2147483648 || n > 2147483647) throw sqlStateError('22003', `value "${s}" is out of range for type integer`);
  return n;
}

/** deserialize_deflist: `key = value, ...` (a value bare, in single quotes or in double quotes). */
function optionList(text: string): [string, string][] {
  const bad = () => sqlStateError('42601', `invalid parameter list format: "${text}"`);
  const out: [string, string][] = [];
  const isSpace = (c: string) => /[ \t\n\r\f\v]/.test(c);
  let state: 'waitKey' | 'key' | 'quotedKey' | 'waitEq' | 'waitValue' | 'sq' | 'dq' | 'bare' = 'waitKey';
  let key = '';
  let value = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    switch (state) {
      case 'waitKey':
        if (isSpace(c) || c === ',') continue;
        key = c === '"' ? '' : c;
        state = c === '"' ? 'quotedKey' : 'key';
        break;
      case 'key':
        if (isSpace(c)) state = 'waitEq';
        else if (c === '=') state = 'waitValue';
        else key += c;
        break;
      case 'quotedKey':
        if (c === '"' && text[i + 1] === '"') key += text[i++];
        else if (c === '"') state = 'waitEq';
        else key += c;
        break;
      case 'waitEq':
        if (c === '=') state = 'waitValue';
        else if (!isSpace(c)) throw bad();
        break;
      case 'waitValue':
        value = '';
        if (c === "'") state = 'sq';
        else if (c === 'E' && text[i + 1] === "'") {
          i++;
          state = 'sq';
        } else if (c === '"') state = 'dq';
        else if (!isSpace(c)) {
          value = c;
          state = 'bare';
        }
        break;
      case 'sq':
        if (c === "'" && text[i + 1] === "'") value += text[i++];
        else if (c === "'") {
          out.push([key, value]);
          state = 'waitKey';
        } else if (c === '\\' && text[i + 1] === '\\') value += text[i++];
        else value += c;
        break;
      case 'dq':
        if (c === '"' && text[i + 1] === '"') value += text[i++];
        else if (c === '"') {
          out.push([key, value]);
          state = 'waitKey';
        } else value += c;
        break;
      case 'bare':
        if (c === ',' || isSpace(c)) {
          out.push([key, value]);
          state = 'waitKey';
        } else value += c;
        break;
    }
  }
  if (state === 'bare') out.push([key, value]);
  else if (state !== 'waitKey') throw bad();
  return out;
}

function optionsOf(text: string | undefined): Options {
  const o: Options = {
    minWords: 15,
    maxWords: 35,
    shortWord: 3,
    maxFragments: 0,
    highlightAll: false,
    startSel: '<b>',
    stopSel: '</b>',
    fragmentDelimiter: ' ... ',
  };
  for (const [key, value] of text === undefined ? [] : optionList(text)) {
    const k = key.toLowerCase();
    if (k === 'maxwords') o.maxWords = int32(value);
    else if (k === 'minwords') o.minWords = int32(value);
    else if (k === 'shortword') o.shortWord = int32(value);
    else if (k === 'maxfragments') o.maxFragments = int32(value);
    else if (k === 'startsel') o.startSel = value;
    else if (k === 'stopsel') o.stopSel = value;
    else if (k === 'fragmentdelimiter') o.fragmentDelimiter = value;
    else if (k === 'highlightall') o.highlightAll = ['1', 'on', 'true', 't', 'y', 'yes'].includes(value.toLowerCase());
    else throw sqlStateError('22023', `unrecognized headline parameter: "${key}"`);
  }
  if (!o.highlightAll) {
    const bad = (m: string) => sqlStateError('22023', m);
    if (o.minWords >= o.maxWords) throw bad('MinWords should be less than MaxWords');
    if (o.minWords <= 0) throw bad('MinWords should be positive');
    if (o.shortWord < 0) throw bad('ShortWord should be >= 0');
    if (o.maxFragments < 0) throw bad('MaxFragments should be >= 0');
  }
  return o;
}

class Selector {
  constructor(
    readonly words: Word[],
    readonly query: TsQuery,
    readonly o: Options,
  ) {
    this.maxCover = Math.max(o.maxWords * 10, 100) * (o.maxFragments > 0 ? o.maxFragments : 1);
  }
  readonly maxCover: number;
  nonWord = (i: number) => NONWORD.has(this.words[i].type);
  interesting = (i: number) => this.words[i].item !== null && !this.words[i].repeated;
  badEnd = (i: number) =>
    (NOEND.has(this.words[i].type) || this.words[i].len <= this.o.shortWord) && !this.interesting(i);

  /** The first word at or after `from` an operand found (-1 when none). */
  firstFound(from: number): number {
    for (let i = from; i < this.words.length; i++) if (this.words[i].item !== null) return i;
    return -1;
  }

  /**
   * hlCover: the earliest, shortest range of words from `from` that satisfies the query, both its
   * ends words the query names, at most max_cover words long (PostgreSQL's bound on the search).
   */
  cover(from: number): { p: number; q: number } | null {
    if (this.query === null) return null;
    let pmin = this.firstFound(from);
    while (pmin >= 0) {
      let nextpmin = -1;
      let pmax = pmin;
      do {
        if (tsExecute(this.query, checkWords(this.words, pmin, pmax))) return { p: pmin, q: pmax };
        const nextpmax = this.firstFound(pmax + 1);
        if (pmax === pmin) nextpmin = nextpmax;
        pmax = nextpmax;
      } while (pmax >= 0 && pmax - pmin < this.maxCover);
      pmin = nextpmin;
    }
    return null;
  }

  mark(from: number, to: number): void {
    for (let i = from; i <= to; i++) {
      const w = this.words[i];
      if (w.item) w.selected = true;
      if (!this.o.highlightAll) {
        if (w.type === 'tag') w.replace = true;
        else if (SKIPPED.has(w.type)) w.skip = true;
      } else if (SKIPPED.has(w.type)) w.skip = true;
      w.in = !w.repeated;
    }
  }

  /** The first MinWords words, when no cover was chosen. */
  firstWords(): number {
    let curlen = 0;
    let pose = -1;
    for (let i = 0; i < this.words.length && curlen < this.o.minWords; i++) {
      if (!this.nonWord(i)) curlen++;
      pose = i;
    }
    return pose;
  }

  /** mark_hl_words: the best cover, lengthened or shortened to a good end (MaxFragments 0). */
  words1(): void {
    const { minWords, maxWords } = this.o;
    if (this.o.highlightAll) {
      this.mark(0, this.words.length - 1);
      return;
    }
    let bestb = -1;
    let beste = -1;
    let bestlen = -1;
    let bestcover = false;
    for (let c = this.cover(0); c; c = this.cover(c.p + 1)) {
      const { p, q } = c;
      let curlen = 0;
      let poslen = 0;
      let posb = p;
      let pose = p;
      let i: number;
      for (i = p; i <= q && curlen < maxWords; i++) {
        if (!this.nonWord(i)) curlen++;
        if (this.interesting(i)) poslen++;
        pose = i;
      }
      if (curlen < maxWords) {
        for (i = i - 1; i < this.words.length && curlen < maxWords; i++) {
          if (i > q) {
            if (!this.nonWord(i)) curlen++;
            if (this.interesting(i)) poslen++;
          }
          pose = i;
          if (this.badEnd(i)) continue;
          if (curlen >= minWords) break;
        }
        if (curlen < minWords) {
          for (i = p - 1; i >= 0; i--) {
            if (!this.nonWord(i)) curlen++;
            if (this.interesting(i)) poslen++;
            if (curlen >= maxWords) break;
            if (this.badEnd(i)) continue;
            if (curlen >= minWords) break;
          }
          posb = Math.max(i, 0);
        }
      } else {
        if (i > q) i = q;
        for (; curlen > minWords; i--) {
          if (!this.badEnd(i)) break;
          if (!this.nonWord(i)) curlen--;
          if (this.interesting(i)) poslen--;
          pose = i - 1;
        }
      }
      const poscover = posb <= p && pose >= q;
      if (
        (poscover && !bestcover) ||
        (poscover === bestcover && poslen > bestlen) ||
        (poscover === bestcover && poslen === bestlen && !this.badEnd(pose) && this.badEnd(beste))
      ) {
        bestb = posb;
        beste = pose;
        bestlen = poslen;
        bestcover = poscover;
      }
    }
    if (bestlen < 0) {
      bestb = 0;
      beste = this.firstWords();
    }
    this.mark(bestb, beste);
  }

  /** mark_hl_fragments: covers cut into fragments of MaxWords, the MaxFragments with most query words stretched. */
  fragments(): void {
    const { maxWords, maxFragments } = this.o;
    interface Frag {
      start: number;
      end: number;
      poslen: number;
      curlen: number;
      chosen: boolean;
      excluded: boolean;
    }
    const covers: Frag[] = [];
    for (let c = this.cover(0); c; c = this.cover(c.p + 1)) {
      let start = c.p;
      let end = c.q;
      while (start <= end) {
        // get_next_fragment: from a query word, at most MaxWords, ending on a query word
        let i: number;
        for (i = start; i <= end; i++) {
          start = i;
          if (this.interesting(i)) break;
        }
        let curlen = 0;
        let poslen = 0;
        for (i = start; i <= end && curlen < maxWords; i++) {
          if (!this.nonWord(i)) curlen++;
          if (this.interesting(i)) poslen++;
        }
        if (end > i) {
          end = i;
          for (i = end; i >= start; i--) {
            end = i;
            if (this.interesting(i)) break;
            if (!this.nonWord(i)) curlen--;
          }
        }
        covers.push({ start, end, curlen, poslen, chosen: false, excluded: false });
        start = end + 1;
        end = c.q;
      }
    }
    let chosen = 0;
    for (let f = 0; f < maxFragments; f++) {
      let maxitems = 0;
      let minwords = 2147483647;
      let best: Frag | undefined;
      for (const c of covers)
        if (!c.chosen && !c.excluded && (maxitems < c.poslen || (maxitems === c.poslen && minwords > c.curlen))) {
          maxitems = c.poslen;
          minwords = c.curlen;
          best = c;
        }
      if (!best) break;
      best.chosen = true;
      let { start, end, curlen } = best;
      if (curlen < maxWords) {
        const maxstretch = Math.floor((maxWords - curlen) / 2);
        let stretch = 0;
        let marker = start;
        let i: number;
        for (i = start - 1; i >= 0 && stretch < maxstretch && !this.words[i].in; i--) {
          if (!this.nonWord(i)) {
            curlen++;
            stretch++;
          }
          marker = i;
        }
        for (i = marker; i < start && this.badEnd(i); i++) if (!this.nonWord(i)) curlen--;
        start = i;
        marker = end;
        for (i = end + 1; i < this.words.length && curlen < maxWords && !this.words[i].in; i++) {
          if (!this.nonWord(i)) curlen++;
          marker = i;
        }
        for (i = marker; i > end && this.badEnd(i); i--) if (!this.nonWord(i)) curlen--;
        end = i;
      }
      Object.assign(best, { start, end, curlen });
      this.mark(start, end);
      chosen++;
      for (const c of covers)
        if (
          c !== best &&
          ((c.start >= start && c.start <= end) || (c.end >= start && c.end <= end) || (c.start < start && c.end > end))
        )
          c.excluded = true;
    }
    if (chosen === 0) this.mark(0, this.firstWords());
  }
}

/** generateHeadline: the chosen words, fragments joined by FragmentDelimiter. */
function generate(words: Word[], o: Options): string {
  let out = '';
  let fragments = 0;
  let inFragment = false;
  for (const w of words) {
    if (w.in && !w.repeated) {
      if (!inFragment) {
        inFragment = true;
        if (++fragments > 1) out += o.fragmentDelimiter;
      }
      if (w.replace) out += ' ';
      else if (!w.skip) out += w.selected ? o.startSel + w.text + o.stopSel : w.text;
    } else if (!w.repeated) inFragment = false;
  }
  return out;
}

export function tsHeadline(config: Config, text: string, query: TsQuery, options?: string): string {
  const words = parseWords(config, text, query);
  const o = optionsOf(options);
  const s = new Selector(words, query, o);
  if (o.maxFragments === 0) s.words1();
  else s.fragments();
  return generate(words, o);
}
