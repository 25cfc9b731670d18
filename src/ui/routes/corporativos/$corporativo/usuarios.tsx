/** `/corporativos/{slug}/usuarios`: the user's profile and role in the corporate. */

import { createFileRoute } from '@tanstack/react-router';
import { UsersPage } from '../../../features/users/components/users-page';

export const Route = createFileRoute('/corporativos/$corporativo/usuarios')({
  component: UsersPage,
});
