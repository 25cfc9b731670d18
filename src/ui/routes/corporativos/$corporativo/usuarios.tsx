/**
 * `/corporativos/{slug}/usuarios[?q&rol&estatus&pagina]`: the corporate's users for a role that
 * manages them (filters and page in the URL, so a notification can link to the pending
 * registrations), else the user's own profile (issue 16).
 */

import { createFileRoute } from '@tanstack/react-router';
import { useCallback } from 'react';
import { UsersPage, type UsersSearch } from '../../../features/users/components/users-page';
import { onlyValidated } from '../../../lib/route-search';

const STATUSES = ['activo', 'inactivo', 'invitado', 'pendiente'] as const;

function Users() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  const onSearch = useCallback(
    (next: UsersSearch) => void navigate({ search: next, replace: true }),
    [navigate],
  );
  return <UsersPage search={search} onSearch={onSearch} />;
}

export const Route = createFileRoute('/corporativos/$corporativo/usuarios')({
  validateSearch: onlyValidated((s: Record<string, unknown>): UsersSearch => {
    const out: UsersSearch = {};
    // Digits typed in the address (a phone) reach here as a number.
    const q = typeof s.q === 'number' ? String(s.q) : s.q;
    if (typeof q === 'string' && q.trim()) out.q = q.trim().slice(0, 120);
    if (typeof s.rol === 'string' && s.rol) out.rol = s.rol.slice(0, 64);
    if (typeof s.estatus === 'string' && (STATUSES as readonly string[]).includes(s.estatus))
      out.estatus = s.estatus as UsersSearch['estatus'];
    const page = Number(s.pagina);
    if (Number.isInteger(page) && page > 1) out.pagina = Math.min(page, 100_000);
    return out;
  }),
  component: Users,
});
