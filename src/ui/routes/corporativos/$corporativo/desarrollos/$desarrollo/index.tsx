import { createFileRoute, redirect } from '@tanstack/react-router';

/** A development opens on its presentation. */
export const Route = createFileRoute('/corporativos/$corporativo/desarrollos/$desarrollo/')({
  beforeLoad: ({ params }) => {
    throw redirect({
      to: '/corporativos/$corporativo/desarrollos/$desarrollo/presentacion',
      params,
      replace: true,
    });
  },
});
