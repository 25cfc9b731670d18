/** `/`: the root sends a signed-in user on (spec §2). */

import { createFileRoute } from '@tanstack/react-router';
import { RootPage } from '../features/shell/components/root-page';

export const Route = createFileRoute('/')({ component: RootPage });
