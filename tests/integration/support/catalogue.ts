/**
 * The demo catalogue as the integration tests use it: grupo-horizonte and its Torre Alameda as a
 * member reads them, and a development's document republished straight into the log (a test
 * that takes it off the web, renames it… and puts it back), and a corporate's settings changed
 * the same way.
 */
import type { Corporate, Development } from '../../../src/core/types';
import { streams } from '../../../src/server/catalogue/events';
import type { openSeeded } from './backends';
import type { client } from './http';

type Client = ReturnType<typeof client>;
type Runtime = Awaited<ReturnType<typeof openSeeded>>;

/** grupo-horizonte and its Torre Alameda, read by a member of the corporate. */
export async function demoAlameda(
  member: Client,
): Promise<{ corp: Corporate; alameda: Development }> {
  const corp = (await member.get('/api/wsObtenerCorporativo?slug=grupo-horizonte'))
    .json as Corporate;
  const alameda = (
    await member.get(`/api/wsObtenerDesarrollo?idCorporativo=${corp.id}&slug=torre-alameda`)
  ).json as Development;
  return { corp, alameda };
}

/** Appends `DevelopmentPublished` with this document: the development becomes exactly it. */
export async function publishDevelopment(
  rt: Runtime,
  corporateId: string,
  development: Development,
  occurredAt = new Date(),
): Promise<void> {
  await rt.deps.store.append(streams.development(corporateId, development.id), 'any', [
    {
      id: rt.deps.newId(),
      type: 'DevelopmentPublished',
      data: { development },
      corporateId,
      actorId: 'test',
      occurredAt,
    },
  ]);
}

/** Appends `CorporateSettingsChanged` with these changes, as an administrator's edit does. */
export async function changeCorporateSettings(
  rt: Runtime,
  corporateId: string,
  changes: Partial<Corporate>,
): Promise<void> {
  await rt.deps.store.append(`corporate:${corporateId}`, 'any', [
    {
      id: rt.deps.newId(),
      type: 'CorporateSettingsChanged',
      data: { changes },
      corporateId,
      actorId: 'test',
      occurredAt: new Date(),
    },
  ]);
}
