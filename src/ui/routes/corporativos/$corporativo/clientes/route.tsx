/**
 * `/corporativos/{slug}/clientes?q=&status=&desarrollo=&idVendedor=`: the clients list, its
 * filters in the address, with the selected lead (the child route) beside it.
 */

import { Outlet, createFileRoute, useMatch, useNavigate } from '@tanstack/react-router';
import { ClientsPage } from '../../../../features/leads/components/clients-page';
import { useCrmConnection } from '../../../../features/crm/api/crm-connection';
import {
  CrmCallbackNotice,
  CrmStatusStrip,
} from '../../../../features/crm/components/crm-status-strip';
import { useCorporateContext } from '../../../../layouts/corporate-context';
import {
  validateClientsSearch,
  type ClientsSearch,
} from '../../../../features/leads/utils/clients-search';
import { onlyValidated } from '../../../../lib/route-search';

function Clients() {
  const search = Route.useSearch();
  // Without `from`: a filter changed while a lead is open keeps that lead open.
  const navigate = useNavigate();
  const selected = useMatch({
    from: '/corporativos/$corporativo/clientes/$lead',
    shouldThrow: false,
  });
  // A client's saved quotation (issue 19) keeps that client selected, and shows on a phone.
  const quotation = useMatch({
    from: '/corporativos/$corporativo/clientes/$lead_/cotizaciones/$cotizacion',
    shouldThrow: false,
  });
  const { corporate } = useCorporateContext();
  // The connection starts before the list, so the lead source knows it on the first render.
  const crm = useCrmConnection(corporate.id);
  return (
    <ClientsPage
      search={search}
      onSearch={(next: ClientsSearch) => void navigate({ to: '.', search: next, replace: true })}
      selectedLeadId={selected?.params.lead ?? quotation?.params.lead ?? null}
      crm={{
        crmSource: crm.crmSource,
        reconnectPrompt: crm.reconnectPrompt,
        tipo: crm.tipo,
        strip: (
          <>
            <CrmCallbackNotice corporateId={corporate.id} />
            <CrmStatusStrip corporateId={corporate.id} />
          </>
        ),
      }}
    >
      <Outlet />
    </ClientsPage>
  );
}

export const Route = createFileRoute('/corporativos/$corporativo/clientes')({
  validateSearch: onlyValidated(validateClientsSearch),
  component: Clients,
});
