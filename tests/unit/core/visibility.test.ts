import { describe, expect, it } from 'vitest';
import { defaultStatusColors } from '../../../src/core/status';
import type { Role, Unit, User } from '../../../src/core/types';
import {
  mayShowUnitPrice,
  sharedCorporates,
  userRecordFor,
  visibleUnit,
  visibleUnitHistory,
} from '../../../src/core/visibility';

const role = (permisos: Role['permisos'] = {}): Role => ({
  id: 'r',
  nombre: 'R',
  permisos,
  permisosLeads: { alcanceLeads: 'Todos' },
  permisosUsuarios: {},
});
const adviser = role();
const inventoryAdmin = role({ administrarInventario: true });
const colors = defaultStatusColors();

const unit = (status: string | undefined): Unit => ({
  id: 'u1',
  idDesarrollo: 'd1',
  idCluster: 'c1',
  idPrototipo: 'p1',
  nombre: 'A-101',
  nivel: 1,
  posicion: 1,
  ...(status === undefined ? {} : { status }),
  precio: 3_500_000,
  precioRenta: 18_000,
  caracteristicas: { recamaras: 2, banios: 2, baniosMedios: 0, cajones: 1 },
  metrajes: { areaTotal: 80 },
});

describe('visibleUnit: a hidden price reaches only roles that administer the inventory', () => {
  it('given a Disponible unit, when an adviser reads it, then the price is there', () => {
    expect(visibleUnit(unit('Disponible'), colors, adviser)).toEqual(unit('Disponible'));
  });

  it.each(['Apartado', 'Bloqueado', 'Reservado', 'Vendido', 'No Disponible', 'Incompleto'])(
    'given a %s unit, when an adviser, a visitor or a role-less caller reads it, then sale and rent prices are omitted',
    (status) => {
      for (const who of [adviser, null, undefined]) {
        const seen = visibleUnit(unit(status), colors, who);
        expect(seen).not.toHaveProperty('precio');
        expect(seen).not.toHaveProperty('precioRenta');
        expect(seen).toMatchObject({ id: 'u1', status, metrajes: { areaTotal: 80 } });
      }
    },
  );

  it('given a status the corporate does not configure, or none, then the price is hidden', () => {
    expect(visibleUnit(unit('FRACTIONAL'), colors, adviser)).not.toHaveProperty('precio');
    expect(visibleUnit(unit(undefined), colors, adviser)).not.toHaveProperty('precio');
  });

  it('given a hidden price, when an inventory administrator reads it, then it is whole', () => {
    expect(visibleUnit(unit('Vendido'), colors, inventoryAdmin)).toEqual(unit('Vendido'));
    expect(mayShowUnitPrice(unit('Vendido'), colors, inventoryAdmin)).toBe(true);
    expect(mayShowUnitPrice(unit('Vendido'), colors, adviser)).toBe(false);
  });

  it('given a corporate that shows the price of Apartado, then advisers see it', () => {
    const shown = { ...colors, Apartado: { ...colors.Apartado!, esPrecioVisible: true } };
    expect(visibleUnit(unit('Apartado'), shown, adviser)).toHaveProperty('precio', 3_500_000);
  });

  it('the history of a hidden price loses its price lines, and only for roles that may not see it', () => {
    const lines = [
      { campo: 'status' as const, nuevo: 'Vendido' },
      { campo: 'precio' as const, nuevo: 3_600_000 },
    ];
    expect(visibleUnitHistory(lines, unit('Vendido'), colors, adviser)).toEqual([lines[0]]);
    expect(visibleUnitHistory(lines, unit('Vendido'), colors, inventoryAdmin)).toEqual(lines);
    expect(visibleUnitHistory(lines, unit('Disponible'), colors, adviser)).toEqual(lines);
  });
});

describe('userRecordFor: of another user, only what belongs to shared corporates', () => {
  const other: User & { credencialesCrmWeb?: unknown } = {
    id: 'u-admin',
    email: 'admin@example.com',
    nombre: 'Ana',
    apellidos: 'Robles',
    corporativos: ['corp-a', 'corp-b'],
    corporativosRegistro: ['corp-c'],
    corporativoFavorito: 'corp-b',
    desarrollosFavoritos: { 'corp-a': { d1: true }, 'corp-b': { d9: true } },
    roles: { 'corp-a': 'admin', 'corp-b': 'admin', 'corp-c': 'broker' },
    rolesAsignacion: { 'corp-a': ['asesor'], 'corp-b': ['gerente'] },
    fechaAlta: 1,
    sesionUltima: 2,
    esAdmin: true,
    tokens: { 'push-token': true },
    info: { estatus: 'activo' },
    credencialesCrmWeb: { 'corp-a': { access_token: 'secret' } },
  };

  it('given a viewer in corp-a only, then corp-b and corp-c, tokens, credentials and esAdmin stay out', () => {
    const seen = userRecordFor({ id: 'u-gerente', corporativos: ['corp-a'] }, other);
    expect(seen).toEqual({
      id: 'u-admin',
      email: 'admin@example.com',
      nombre: 'Ana',
      apellidos: 'Robles',
      corporativos: ['corp-a'],
      corporativosRegistro: [],
      corporativoFavorito: null,
      desarrollosFavoritos: { 'corp-a': { d1: true } },
      roles: { 'corp-a': 'admin' },
      rolesAsignacion: { 'corp-a': ['asesor'] },
      fechaAlta: 1,
      sesionUltima: 2,
      info: { estatus: 'activo' },
    });
  });

  it('given a viewer in a corporate the other registered in, then that registration shows', () => {
    const seen = userRecordFor({ id: 'v', corporativos: ['corp-c'] }, other);
    expect(seen.corporativosRegistro).toEqual(['corp-c']);
    expect(seen.roles).toEqual({ 'corp-c': 'broker' });
    expect(sharedCorporates({ corporativos: ['corp-c', 'corp-z'] }, other)).toEqual(['corp-c']);
  });

  it('given the user themselves, then the record is whole', () => {
    expect(userRecordFor({ id: 'u-admin', corporativos: [] }, other)).toBe(other);
  });
});
