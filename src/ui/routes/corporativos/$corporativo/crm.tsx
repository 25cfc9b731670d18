/** `/corporativos/{slug}/crm`: the corporate's CRM settings and sync health (the administrator's). */

import { createFileRoute } from '@tanstack/react-router';
import { CrmSettingsPage } from '../../../features/crm/components/crm-settings-page';

export const Route = createFileRoute('/corporativos/$corporativo/crm')({
  component: CrmSettingsPage,
});
