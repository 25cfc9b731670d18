/** `/operaciones`: the background work of the platform, for its administrators (core `mayOperate`). */

import { createFileRoute } from '@tanstack/react-router';
import { OperationsPage } from '../features/operations/components/operations-page';

export const Route = createFileRoute('/operaciones')({ component: OperationsPage });
