import { createFileRoute } from '@tanstack/react-router';
import { VisualMaterialPage } from '../../../../../features/inventory/components/visual-material-page';

export const Route = createFileRoute(
  '/corporativos/$corporativo/desarrollos/$desarrollo/material-visual',
)({
  component: VisualMaterialPage,
});
