/**
 * Copying a link to the clipboard with the spec's toasts (§8): 'El link ha sido copiado
 * correctamente al portapapeles' on success, 'Ocurrió un error inesperado mientras se
 * intentaba copiar el link' on failure (the shell's `errors` namespace holds both languages).
 */

import i18n from 'i18next';
import { toast } from './toast';

function legacyCopy(text: string): boolean {
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  try {
    return document.execCommand('copy');
  } catch {
    return false;
  } finally {
    area.remove();
  }
}

/** Copies `url`; resolves true when it worked. Shows the success or failure toast. */
export async function copyLink(url: string): Promise<boolean> {
  let ok = false;
  try {
    if (!navigator.clipboard?.writeText) throw new Error('no clipboard');
    await navigator.clipboard.writeText(url);
    ok = true;
  } catch {
    ok = legacyCopy(url);
  }
  if (ok) toast.success(i18n.t('errors:linkCopied'));
  else toast.error(i18n.t('errors:linkCopyFailed'));
  return ok;
}

/** An absolute URL for a path of the application. */
export function absoluteUrl(path: string): string {
  return new URL(path, window.location.origin).toString();
}
