/**
 * `/corporativos/{slug}/clientes?q=&status=&desarrollo=&idVendedor=`: the clients list, its
 * filters in the address, with the selected lead (the child route) beside it.
 */

import { Outlet, createFileRoute, useMatch, useNavigate } from '@tanstack/react-router';
import { ClientsPage } from '../../../../features/leads/components/clients-page';
import {
  clientsSearchSchema,
  type ClientsSearch,
} from '../../../../features/leads/utils/clients-search';

function Clients() {
  const search = Route.useSearch();
  // Without `from`: a filter changed while a lead is open keeps that lead open.
  const navigate = useNavigate();
  const selected = useMatch({
    from: '/corporativos/$corporativo/clientes/$lead',
    shouldThrow: false,
  });
  return (
    <ClientsPage
      search={search}
      onSearch={(next: ClientsSearch) => void navigate({ to: '.', search: next, replace: true })}
      selectedLeadId={selected?.params.lead ?? null}
    >
      <Outlet />
    </ClientsPage>
  );
}

export const Route = createFileRoute('/corporativos/$corporativo/clientes')({
  validateSearch: clientsSearchSchema,
  component: Clients,
});
