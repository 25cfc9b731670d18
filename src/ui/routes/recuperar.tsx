/** `/recuperar[?token=…]`: ask for a recovery link, or set a new password from it (issue 16). */

import { createFileRoute } from '@tanstack/react-router';
import { RecoveryPage } from '../features/users/components/recovery-page';
import { onlyValidated } from '../lib/route-search';

interface TokenSearch {
  token?: string;
}

function Recovery() {
  const { token } = Route.useSearch();
  return <RecoveryPage token={token} />;
}

export const Route = createFileRoute('/recuperar')({
  validateSearch: onlyValidated((search: Record<string, unknown>): TokenSearch =>
    typeof search.token === 'string' ? { token: search.token } : {},
  ),
  component: Recovery,
});
