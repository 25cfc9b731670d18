/** `/acceso?token=…`: an invited person sets their password from the mailed link (issue 16). */

import { createFileRoute } from '@tanstack/react-router';
import { AccessPage } from '../features/users/components/access-page';
import { onlyValidated } from '../lib/route-search';

interface TokenSearch {
  token?: string;
}

function Access() {
  const { token } = Route.useSearch();
  return <AccessPage token={token} />;
}

export const Route = createFileRoute('/acceso')({
  validateSearch: onlyValidated((search: Record<string, unknown>): TokenSearch =>
    typeof search.token === 'string' ? { token: search.token } : {},
  ),
  component: Access,
});
