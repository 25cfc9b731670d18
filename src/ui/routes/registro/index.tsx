/** `/registro`: a broker names the corporate they work with, then registers (issue 16). */

import { createFileRoute } from '@tanstack/react-router';
import { RegistrationStartPage } from '../../features/users/components/registration-page';

export const Route = createFileRoute('/registro/')({ component: RegistrationStartPage });
