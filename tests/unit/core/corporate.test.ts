import { describe, expect, it } from 'vitest';
import {
  CORPORATE_EVENT_TYPES,
  corporateDecider,
  decideCorporate,
  jsonEqual,
  type CorporateCommand,
  type CorporateConfig,
  type CorporateEvent,
  type CorporateSettings,
} from '../../../src/core/corporate';
import { fold } from '../../../src/core/decider';
import type { Corporate, Role } from '../../../src/core/types';

const asesor: Role = {
  id: 'gru-asesor',
  nombre: 'Asesor',
  permisos: {},
  permisosLeads: { alcanceLeads: 'Propios' },
  permisosUsuarios: {},
};
const corporate: Corporate = {
  id: 'corp-1',
  slug: 'grupo-horizonte',
  nombre: 'Grupo Horizonte',
  multiIdioma: true,
  coloresStatus: {},
  colores: { colorBotonPrimario: '#0B5FFF' },
  mediosContacto: ['Showroom', 'Web'],
  roles: [asesor],
  imagen: {},
  divisa: [{ codigo: 'MXN', activo: true, nombre: 'Pesos', tipoCambio: 1 }],
  zonaHoraria: 'America/Mexico_City',
  configFiltros: { ocultarPrecioUnidadesNoDisponibles: true },
  configCotizacion: { exportadorCotizaciones: {} },
};
const config: CorporateConfig = {
  showrooms: [],
  statusLeads: [{ id: 'nuevo', nombre: 'Nuevo', color: '#00AAFF' }],
  tagsBusqueda: [],
  categoriasBusqueda: [],
};

const registered: CorporateEvent[] = [{ type: 'CorporateRegistered', data: { corporate, config } }];

/** given these events, when this command, then… */
function given(events: CorporateEvent[]) {
  return {
    when: (command: CorporateCommand) => decideCorporate(command, fold(corporateDecider, events)),
  };
}

const change = (changes: CorporateSettings): CorporateCommand => ({
  type: 'ChangeCorporateSettings',
  changes,
});

describe('corporate decider', () => {
  it('given nothing, when registering, then CorporateRegistered with the document and its configuration', () => {
    expect(given([]).when({ type: 'RegisterCorporate', corporate, config })).toEqual({
      ok: true,
      events: registered,
    });
    expect(fold(corporateDecider, registered)).toEqual({ corporate, config });
    expect(CORPORATE_EVENT_TYPES).toEqual([
      'CorporateRegistered',
      'CorporateSettingsChanged',
      'ShowroomConfigured',
    ]);
  });

  it('given a corporate, when registering it again, then CORPORATE_EXISTS', () => {
    expect(given(registered).when({ type: 'RegisterCorporate', corporate, config })).toEqual({
      ok: false,
      error: { code: 'CORPORATE_EXISTS' },
    });
  });

  it('given nothing, when changing settings, then CORPORATE_NOT_FOUND', () => {
    expect(given([]).when(change({ nombre: 'X' }))).toEqual({
      ok: false,
      error: { code: 'CORPORATE_NOT_FOUND' },
    });
  });

  it('given a corporate, when changing settings, then CorporateSettingsChanged names only the changed fields', () => {
    const roles = [{ ...asesor, permisosLeads: { alcanceLeads: 'Todos' as const } }];
    const decision = given(registered).when(
      change({
        nombre: 'Grupo Horizonte',
        // Same value, other key order: not a change.
        configFiltros: { ocultarPrecioUnidadesNoDisponibles: true },
        roles,
        colores: { colorBotonPrimario: '#111111' },
      }),
    );
    expect(decision).toEqual({
      ok: true,
      events: [
        {
          type: 'CorporateSettingsChanged',
          data: { changes: { roles, colores: { colorBotonPrimario: '#111111' } } },
        },
      ],
    });
    if (!decision.ok) return;
    const after = fold(corporateDecider, [...registered, ...decision.events]).corporate;
    expect(after?.roles).toEqual(roles);
    expect(after?.colores).toEqual({ colorBotonPrimario: '#111111' });
    expect(after?.nombre).toBe('Grupo Horizonte');
  });

  it('given a corporate, when nothing changes, then no events', () => {
    expect(
      given(registered).when(change({ nombre: 'Grupo Horizonte', roles: [{ ...asesor }] })),
    ).toEqual({ ok: true, events: [] });
    expect(given(registered).when(change({}))).toEqual({ ok: true, events: [] });
  });

  it('given a corporate, when a change names id or slug, then CORPORATE_SETTINGS_INVALID', () => {
    const sneaky = { slug: 'otro', nombre: 'Otro' } as CorporateSettings;
    expect(given(registered).when(change(sneaky))).toEqual({
      ok: false,
      error: { code: 'CORPORATE_SETTINGS_INVALID', campos: ['slug'] },
    });
  });
});

describe('jsonEqual', () => {
  it('compares JSON values structurally: key order ignored, array order kept, undefined as absent', () => {
    expect(jsonEqual({ a: 1, b: [1, 2] }, { b: [1, 2], a: 1 })).toBe(true);
    expect(jsonEqual({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
    expect(jsonEqual({ a: 1 }, { a: '1' })).toBe(false);
    expect(jsonEqual([], {})).toBe(false);
    expect(jsonEqual(null, {})).toBe(false);
  });
});

describe('corporate decider: showrooms (PUT …/config-corporativo/showroom/{id})', () => {
  const alameda = {
    id: 'sr-alameda',
    nombre: 'Showroom Alameda',
    activo: true,
    coordenadas: { _latitude: 19.4349, _longitude: -99.1442, _accuracy: 30 },
  };
  const withShowroom: CorporateEvent[] = [
    {
      type: 'CorporateRegistered',
      data: { corporate, config: { ...config, showrooms: [alameda] } },
    },
  ];
  const configure = (showroom: typeof alameda): CorporateCommand => ({
    type: 'ConfigureShowroom',
    showroom,
  });

  it('given a showroom, when it is deactivated and moved, then ShowroomConfigured with the whole showroom', () => {
    const changed = {
      ...alameda,
      activo: false,
      coordenadas: { _latitude: 19.44, _longitude: -99.15, _accuracy: 10 },
    };
    const decision = given(withShowroom).when(configure(changed));
    expect(decision).toEqual({
      ok: true,
      events: [{ type: 'ShowroomConfigured', data: { showroom: changed, nuevo: false } }],
    });
    const after = fold(corporateDecider, [
      ...withShowroom,
      ...(decision.ok ? decision.events : []),
    ]);
    expect(after.config?.showrooms).toEqual([changed]);
  });

  it('given a corporate, when a showroom of a new id is configured, then it is added (nuevo) after the others', () => {
    const nuevo = { ...alameda, id: 'sr-olivos', nombre: '  Showroom Los Olivos ' };
    const decision = given(withShowroom).when(configure(nuevo));
    const trimmed = { ...nuevo, nombre: 'Showroom Los Olivos' };
    expect(decision).toEqual({
      ok: true,
      events: [{ type: 'ShowroomConfigured', data: { showroom: trimmed, nuevo: true } }],
    });
    const after = fold(corporateDecider, [
      ...withShowroom,
      ...(decision.ok ? decision.events : []),
    ]);
    expect(after.config?.showrooms.map((s) => s.id)).toEqual(['sr-alameda', 'sr-olivos']);
  });

  it('given a showroom, when it is configured with the same values, then nothing is written', () => {
    expect(given(withShowroom).when(configure({ ...alameda }))).toEqual({ ok: true, events: [] });
  });

  it('given a showroom, when the name is empty or a coordinate impossible, then SHOWROOM_INVALID naming them', () => {
    expect(
      given(withShowroom).when(
        configure({
          ...alameda,
          nombre: '  ',
          coordenadas: { _latitude: 91, _longitude: -181, _accuracy: -1 },
        }),
      ),
    ).toEqual({
      ok: false,
      error: {
        code: 'SHOWROOM_INVALID',
        campos: ['nombre', '_latitude', '_longitude', '_accuracy'],
      },
    });
  });

  it('given nothing, when configuring a showroom, then CORPORATE_NOT_FOUND', () => {
    expect(given([]).when(configure(alameda))).toEqual({
      ok: false,
      error: { code: 'CORPORATE_NOT_FOUND' },
    });
  });
});
