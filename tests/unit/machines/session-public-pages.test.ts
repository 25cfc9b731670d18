import { expect, it } from 'vitest';
import { SimulatedClock, createActor, fromPromise } from 'xstate';
import { sessionMachine } from '../../../src/machines/session.machine';

const flush = () => new Promise((r) => setTimeout(r, 0));

function start(pathname: string) {
  const clock = new SimulatedClock();
  const navigations: string[] = [];
  const machine = sessionMachine.provide({
    actors: {
      checkSession: fromPromise(() => Promise.resolve<{ id: string } | null>(null)),
      signOut: fromPromise(() => Promise.resolve()),
    },
    actions: { navigate: (_, params) => void navigations.push(params.to) },
  });
  const actor = createActor(machine, {
    clock,
    input: { location: () => ({ pathname, search: '' }) },
  });
  actor.start();
  return { actor, clock, navigations };
}

it('keeps a visitor of a public availability page where it is after the 3000 ms guard', async () => {
  const { actor, clock, navigations } = start(
    '/public/corporativos/grupo-horizonte/desarrollos/torre-alameda/disponibilidad',
  );
  await flush();
  clock.increment(10_000);
  await flush();
  expect(actor.getSnapshot().hasTag('logoutLoading')).toBe(false);
  expect(navigations).toEqual([]);
});

it('still logs a visitor of a private page out after 3000 ms (the same setup can fail)', async () => {
  const { actor, clock, navigations } = start('/corporativos/grupo-horizonte/desarrollos');
  await flush();
  clock.increment(3000);
  await flush();
  expect(actor.getSnapshot().hasTag('logoutLoading') || navigations.length > 0).toBe(true);
});
