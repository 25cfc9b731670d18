/** `/corporativos/{slug}/clientes`: the clients list, with the selected lead beside it. */

import { Outlet, createFileRoute } from '@tanstack/react-router';
import { ClientsPage } from '../../../../components/leads/clients-page';

function Clients() {
  return (
    <ClientsPage>
      <Outlet />
    </ClientsPage>
  );
}

export const Route = createFileRoute('/corporativos/$corporativo/clientes')({
  component: Clients,
});
