/**
 * Each route's own document title (issue 19: every page was titled "Vitrina"): the page's name
 * from the path (core `pageOf`), then the names the page knows (development, corporate, unit),
 * then the product, e.g. "Disponibilidad – Torre Alameda – Grupo Horizonte – Vitrina".
 */

import { useRouterState } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { titledPageOf } from '../../core/navigation';
import { useDocumentTitle } from './document-title';

export {
  PRODUCT_NAME,
  documentTitle,
  useDocumentTitle,
  usePageDescription,
} from './document-title';

/**
 * Sets the document title to the current route's page name followed by `names`. Called by the
 * layouts and pages that know the names (the top bar, the public headers);
 * the last one to render wins, so one call per screen. `seesAllClients`: the user's role sees
 * every adviser's clients, whose list is "Clientes" rather than "Mis clientes".
 */
export function usePageTitle(
  names: readonly (string | null | undefined)[] = [],
  seesAllClients = false,
): void {
  const { t } = useTranslation('shell');
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  useDocumentTitle(t(`pages.${titledPageOf(pathname, seesAllClients)}`), ...names);
}
