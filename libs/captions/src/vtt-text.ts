/** The tags WebVTT cue text may hold (class, italics, bold, underline, ruby, voice, language). */
const CUE_TAGS = new Set(['c', 'i', 'b', 'u', 'ruby', 'rt', 'v', 'lang']);
const TIMESTAMP_TAG = /^(?:\d{2,}:)?\d{2}:\d{2}\.\d{3}$/;
const ENTITY = /^&(?:[A-Za-z][A-Za-z0-9]*|#\d+|#[xX][0-9A-Fa-f]+);/;

/**
 * Walks cue text, keeping what `keep` says of each `<…>` tag (its replacement, or '' to drop it) and
 * escaping what WebVTT cannot hold literally: a `<` that opens no tag, a `>` outside a tag (so `-->`
 * never ends up in cue text) and an `&` that starts no character reference.
 */
export function rewriteCueMarkup(text: string, keep: (tag: string) => string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '<') {
      const close = text.indexOf('>', i + 1);
      const inner = close < 0 ? '' : text.slice(i + 1, close);
      if (close < 0 || inner.includes('<') || inner.includes('\n') || !/^(?:\/?[A-Za-z]|\d)/.test(inner)) {
        out += '&lt;';
        continue;
      }
      out += keep(inner);
      i = close;
    } else if (ch === '>') out += '&gt;';
    else if (ch === '&') out += ENTITY.test(text.slice(i)) ? '&' : '&amp;';
    else out += ch;
  }
  return out;
}

/** Cue text with its lines' ends trimmed and no blank lines at either end; '' when nothing would be shown. */
export function tidyCueText(text: string): string {
  const lines = text.split('\n').map((l) => l.replace(/\s+$/, ''));
  while (lines.length > 0 && lines[0].trim() === '') lines.shift();
  while (lines.length > 0 && lines[lines.length - 1].trim() === '') lines.pop();
  const shown = lines
    .join('\n')
    .replace(/<[^>]*>/g, '')
    .trim();
  return shown === '' ? '' : lines.join('\n');
}

/** A WebVTT cue's text made safe to serve: its own tags kept (with classes and annotations), any other tag dropped. */
export function vttCueText(text: string): string {
  return tidyCueText(
    rewriteCueMarkup(text, (tag) => {
      if (TIMESTAMP_TAG.test(tag)) return `<${tag}>`;
      const closing = tag.startsWith('/');
      const name = (closing ? tag.slice(1) : tag).split(/[.\s]/, 1)[0].toLowerCase();
      if (!CUE_TAGS.has(name)) return '';
      return closing ? `</${name}>` : `<${name}${tag.slice(name.length)}>`;
    }),
  );
}

const SETTINGS: Record<string, RegExp> = {
  vertical: /^(?:rl|lr)$/,
  line: /^(?:-?\d+|\d+(?:\.\d+)?%)(?:,(?:start|center|end))?$/,
  position: /^\d+(?:\.\d+)?%(?:,(?:line-left|center|line-right))?$/,
  size: /^\d+(?:\.\d+)?%$/,
  align: /^(?:start|center|end|left|right)$/,
  region: /^[^\s:]+$/,
};

/** The valid cue settings of a timing line (`line:0 align:start`), in their order; invalid or unknown ones dropped, a repeated one's last value kept. */
export function vttCueSettings(text: string): string {
  const kept = new Map<string, string>();
  for (const token of text.split(/[ \t]+/)) {
    const colon = token.indexOf(':');
    if (colon <= 0) continue;
    const name = token.slice(0, colon);
    const value = name === 'align' && token.slice(colon + 1) === 'middle' ? 'center' : token.slice(colon + 1);
    if (SETTINGS[name]?.test(value)) {
      kept.delete(name);
      kept.set(name, value);
    }
  }
  return [...kept].map(([name, value]) => `${name}:${value}`).join(' ');
}
