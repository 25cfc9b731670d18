import { createFileRoute } from '@tanstack/react-router';
import { DocumentsPage } from '../../../../../features/inventory/components/documents-page';

export const Route = createFileRoute(
  '/corporativos/$corporativo/desarrollos/$desarrollo/documentos',
)({
  component: DocumentsPage,
});
