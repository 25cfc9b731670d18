/** `/corporativos`: the user's corporates (several, or to switch). */

import { createFileRoute } from '@tanstack/react-router';
import { CorporatesPage } from '../../features/shell/components/corporates-page';

export const Route = createFileRoute('/corporativos/')({ component: CorporatesPage });
