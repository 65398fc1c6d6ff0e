import { rewriteCueMarkup, tidyCueText } from './vtt-text';

/** Colour names of HTML 4 (what SubRip editors write in `<font color>`), as hex. */
const NAMED_COLOURS: Record<string, string> = {
  black: '000000',
  silver: 'c0c0c0',
  gray: '808080',
  grey: '808080',
  white: 'ffffff',
  maroon: '800000',
  red: 'ff0000',
  purple: '800080',
  fuchsia: 'ff00ff',
  magenta: 'ff00ff',
  green: '008000',
  lime: '00ff00',
  olive: '808000',
  yellow: 'ffff00',
  navy: '000080',
  blue: '0000ff',
  teal: '008080',
  aqua: '00ffff',
  cyan: '00ffff',
  orange: 'ffa500',
  pink: 'ffc0cb',
};

const STYLE_TAGS = new Set(['b', 'i', 'u']);
const ASS_OVERRIDE = /\{\\[^}]*\}/g;
const BRACE_STYLE = /\{(\/?)([biu])\}/gi;

/** The hex of a `<font color>` value (`#ff0000`, `#F00`, `ff0000`, `red`), or undefined. */
export function colourHex(value: string): string | undefined {
  const v = value.trim().toLowerCase();
  if (NAMED_COLOURS[v]) return NAMED_COLOURS[v];
  const hex = /^#?([0-9a-f]{6}|[0-9a-f]{3})$/.exec(v)?.[1];
  if (!hex) return undefined;
  return hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex;
}

/**
 * SubRip cue text as WebVTT cue text: `<b>`, `<i>`, `<u>` kept, `{b}`-style tags made into them,
 * `<font color>` into a class span (`<c.color_ff0000>`, its STYLE rule added to `colours`), other font
 * attributes and unknown tags dropped, `<br>` a line break, ASS override tags (`{\an8}`, `{\pos(…)}`)
 * removed, and `<`, `>`, `&` escaped where WebVTT needs it.
 */
export function srtCueText(raw: string, colours: Map<string, string>): string {
  const spans: boolean[] = []; // per open <font>: whether it became a <c> span
  const text = raw.replace(ASS_OVERRIDE, '').replace(BRACE_STYLE, (_m, slash: string, tag: string) => `<${slash}${tag.toLowerCase()}>`);
  const converted = rewriteCueMarkup(text, (tag) => {
    const closing = tag.startsWith('/');
    const name = (closing ? tag.slice(1) : tag).trim().split(/[\s/]/, 1)[0].toLowerCase();
    if (STYLE_TAGS.has(name)) return closing ? `</${name}>` : `<${name}>`;
    if (name === 'br') return '\n';
    if (name !== 'font') return '';
    if (closing) return spans.pop() ? '</c>' : '';
    const value = /color\s*=\s*["']?([^"'\s>]+)/i.exec(tag)?.[1];
    const hex = value === undefined ? undefined : colourHex(value);
    spans.push(hex !== undefined);
    if (hex === undefined) return '';
    colours.set(`color_${hex}`, `#${hex}`);
    return `<c.color_${hex}>`;
  });
  return tidyCueText(converted + '</c>'.repeat(spans.filter(Boolean).length));
}

/**
 * Cue settings for an ASS position tag at the start of SubRip text (`{\an8}`: top centre), as the
 * numeric keypad places it: 7–9 top, 4–6 middle, 1–3 bottom (the default); left and right columns
 * aligned to a side. '' when there is none.
 */
export function srtPosition(raw: string): string {
  const an = /\{\\an([1-9])\}/.exec(raw)?.[1];
  if (!an) return '';
  const n = Number(an);
  const settings: string[] = [];
  if (n >= 7) settings.push('line:0');
  else if (n >= 4) settings.push('line:50%');
  if (n % 3 === 1) settings.push('position:10%', 'align:start');
  else if (n % 3 === 0) settings.push('position:90%', 'align:end');
  return settings.join(' ');
}
