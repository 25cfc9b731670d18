/** `/registro/{corporativo}`: a broker's self-registration with a corporate (spec §1, issue 16). */

import { createFileRoute } from '@tanstack/react-router';
import { RegistrationPage } from '../../features/users/components/registration-page';

function Registration() {
  const { corporativo } = Route.useParams();
  return <RegistrationPage slug={corporativo} />;
}

export const Route = createFileRoute('/registro/$corporativo')({ component: Registration });
