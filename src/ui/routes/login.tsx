/** `/login?redirect=…`: sign in (empty layout). */

import { createFileRoute } from '@tanstack/react-router';
import { LoginPage } from '../features/shell/components/login-page';

interface LoginSearch {
  redirect?: string;
}

function Login() {
  const { redirect } = Route.useSearch();
  return <LoginPage redirect={redirect} />;
}

export const Route = createFileRoute('/login')({
  validateSearch: (search: Record<string, unknown>): LoginSearch =>
    typeof search.redirect === 'string' ? { redirect: search.redirect } : {},
  component: Login,
});
