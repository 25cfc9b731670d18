/** `/corporativos/{slug}/datos-legales`: the developer's legal data printed on quotations. */

import { createFileRoute } from '@tanstack/react-router';
import { LegalDataPage } from '../../../features/quotes/components/legal-data-page';

export const Route = createFileRoute('/corporativos/$corporativo/datos-legales')({
  component: LegalDataPage,
});
