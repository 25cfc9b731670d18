/** `/corporativos/{slug}/showrooms/{id}/cartel`: a showroom's printable QR poster (issue 14). */

import { createFileRoute } from '@tanstack/react-router';
import { ShowroomPoster } from '../../../../../features/check-in/components/showroom-poster';

function Poster() {
  const { showroom } = Route.useParams();
  return <ShowroomPoster showroomId={showroom} />;
}

export const Route = createFileRoute('/corporativos/$corporativo/showrooms/$showroom/cartel')({
  component: Poster,
});
