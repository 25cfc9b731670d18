/**
 * Whose client a person already is, as a 409 LEAD_DUPLICATE answer says it: the adviser's own,
 * another adviser's (by name), or nobody's yet. In the `leads` namespace's words, for every form
 * that can meet it (the client form, a quotation saved for a new client).
 */
import type { TFunction } from 'i18next';

export function duplicateClientMessage(
  t: TFunction,
  duplicate: { own: boolean; ownerName: string },
): string {
  if (duplicate.own) return t('duplicate.own', { ns: 'leads' });
  return duplicate.ownerName
    ? t('duplicate.owner', { ns: 'leads', nombre: duplicate.ownerName })
    : t('duplicate.unassigned', { ns: 'leads' });
}
