/** `/corporativos/{c}/desarrollos/{d}/ajustes`: the development's settings (issue 20). */

import { createFileRoute } from '@tanstack/react-router';
import { DevelopmentSettingsPage } from '../../../../../features/content/components/development-settings-page';

export const Route = createFileRoute('/corporativos/$corporativo/desarrollos/$desarrollo/ajustes')({
  component: DevelopmentSettingsPage,
});
