/**
 * The paper a quotation prints on (issue 19): Letter, Mexico's usual size and the default, or
 * A4. The choice is remembered in this browser (`vitrina.paper`) and written into the page's
 * `@page` rule, with the page number "x / y" in the bottom-right margin box (CSS paged media,
 * which Chromium's print and print-to-PDF honour).
 *
 * ```tsx
 * const [paper, setPaper] = usePaperSize();
 * <style>{printPageCss(paper, { pageLabel: t('document.page'), folio })}</style>
 * ```
 */

import { useCallback, useSyncExternalStore } from 'react';

export type PaperSize = 'letter' | 'a4';
export const PAPER_SIZES: readonly PaperSize[] = ['letter', 'a4'];
export const PAPER_KEY = 'vitrina.paper';

const listeners = new Set<() => void>();

function read(): PaperSize {
  try {
    return localStorage.getItem(PAPER_KEY) === 'a4' ? 'a4' : 'letter';
  } catch {
    return 'letter';
  }
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The chosen paper (Letter unless A4 was chosen) and the setter that remembers it. */
export function usePaperSize(): [PaperSize, (paper: PaperSize) => void] {
  const paper = useSyncExternalStore(subscribe, read, () => 'letter' as const);
  const set = useCallback((next: PaperSize) => {
    try {
      localStorage.setItem(PAPER_KEY, next);
    } catch {
      // Storage unavailable: the choice lasts until the page is left.
    }
    listeners.forEach((l) => l());
  }, []);
  return [paper, set];
}

/** A CSS string literal of plain text (quotes and backslashes escaped, no line breaks). */
function cssString(text: string): string {
  return `"${text.replace(/[\\"]/g, (c) => `\\${c}`).replace(/[\r\n]+/g, ' ')}"`;
}

/**
 * The `@page` rule for the paper: its size, margins, "x / y" at the bottom right (`pageLabel`
 * before it, e.g. "Página"), and the quotation's folio at the bottom left when given.
 */
export function printPageCss(
  paper: PaperSize,
  { pageLabel, folio }: { pageLabel: string; folio?: string | null },
): string {
  const size = paper === 'a4' ? 'A4' : 'letter';
  const box = 'font-size: 8pt; color: #4b5563; font-family: system-ui, sans-serif;';
  return `
@page {
  size: ${size};
  margin: 12mm 12mm 16mm 12mm;
  @bottom-right { content: ${cssString(`${pageLabel} `)} counter(page) " / " counter(pages); ${box} }
  ${folio ? `@bottom-left { content: ${cssString(folio)}; ${box} }` : ''}
}
@media print {
  html, body { background: #fff !important; }
}
`;
}
