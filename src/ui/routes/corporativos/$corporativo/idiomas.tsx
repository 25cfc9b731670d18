/** `/corporativos/{slug}/idiomas`: the corporate's own labels in English (issue 19). */

import { createFileRoute } from '@tanstack/react-router';
import { LabelsPage } from '../../../features/labels/components/labels-page';

export const Route = createFileRoute('/corporativos/$corporativo/idiomas')({
  component: LabelsPage,
});
