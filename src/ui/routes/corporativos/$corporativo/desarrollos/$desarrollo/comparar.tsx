import { createFileRoute, redirect } from '@tanstack/react-router';

/** `comparar` is the other segment seen for the comparator (spec §2). */
export const Route = createFileRoute('/corporativos/$corporativo/desarrollos/$desarrollo/comparar')(
  {
    beforeLoad: ({ params }) => {
      throw redirect({
        to: '/corporativos/$corporativo/desarrollos/$desarrollo/comparador',
        params,
        replace: true,
      });
    },
  },
);
