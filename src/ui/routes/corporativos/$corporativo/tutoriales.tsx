/** `/corporativos/{slug}/tutoriales`: the administrator's tutorials editor (issue 20). */

import { createFileRoute } from '@tanstack/react-router';
import { TutorialsAdminPage } from '../../../features/content/components/tutorials-admin-page';

export const Route = createFileRoute('/corporativos/$corporativo/tutoriales')({
  component: TutorialsAdminPage,
});
