/** Pure rules of the seller's branding: colour parsing and a readable text colour on the accent. */

export const DEFAULT_ACCENT = '#1d4ed8';

const channel = (hex: string, at: number) => parseInt(hex.slice(at, at + 2), 16) / 255;
const linear = (c: number) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);

/** WCAG relative luminance of a `#rrggbb` colour. */
export function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((at) => linear(channel(hex, at)));
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

/** WCAG contrast ratio of two `#rrggbb` colours (1 to 21). */
export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

/** Text colour for buttons filled with the accent: whichever of white or near-black reads better. */
export const textOnAccent = (accent: string) => (contrast(accent, '#ffffff') >= contrast(accent, '#111111') ? '#ffffff' : '#111111');

/**
 * The accent as link and border colour on a white page: kept when it reaches the 4.5:1 contrast
 * that WCAG AA asks of text, otherwise darkened step by step until it does.
 */
export function accentOnWhite(accent: string): string {
  let [r, g, b] = [1, 3, 5].map((at) => parseInt(accent.slice(at, at + 2), 16));
  let colour = accent.toLowerCase();
  while (contrast(colour, '#ffffff') < 4.5) {
    [r, g, b] = [r!, g!, b!].map((c) => Math.floor(c * 0.85));
    colour = `#${[r, g, b].map((c) => c!.toString(16).padStart(2, '0')).join('')}`;
  }
  return colour;
}
