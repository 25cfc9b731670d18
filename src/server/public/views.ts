/** What a signed-out visitor may see of the catalogue: no hidden price, nothing internal. */
import { effectiveStatusColors, statusInfo } from '../../core/status';
import { mayShowUnitPrice } from '../../core/visibility';
import { showsFacadeColour, unitFeaturesOf } from '../../core/development-settings';
import type { Corporate, Development, Prototype, StatusColors, Unit } from '../../core/types';

/** The status colours that apply in a development (the core's rule, shared by every route). */
export { effectiveStatusColors };

/**
 * What a visitor may see of a unit: no hidden price (core/visibility.ts, as for a caller with no
 * role), no internal references beyond the page's needs.
 */
export function publicUnit(unit: Unit, colors: StatusColors) {
  const visible = mayShowUnitPrice(unit, colors, null);
  const info = statusInfo(unit.status, colors);
  return {
    id: unit.id,
    idCluster: unit.idCluster,
    idPrototipo: unit.idPrototipo,
    nombre: unit.nombre,
    nivel: unit.nivel,
    posicion: unit.posicion,
    status: unit.status ?? null,
    categoria: unit.categoria ?? null,
    disponibilidad: info.disponibilidad,
    color: info.hexColor,
    esCotizable: info.esCotizable,
    caracteristicas: unit.caracteristicas,
    metrajes: unit.metrajes,
    divisa: unit.divisa ?? 'MXN',
    ...(visible
      ? {
          precio: unit.precio,
          ...(unit.precioRenta != null ? { precioRenta: unit.precioRenta } : {}),
        }
      : {}),
  };
}

export function publicCorporate(c: Corporate) {
  return {
    slug: c.slug,
    nombre: c.nombre,
    multiIdioma: c.multiIdioma,
    imagen: c.imagen,
    colores: c.colores,
    divisa: c.divisa,
    coloresStatus: c.coloresStatus,
  };
}

export function publicDevelopment(d: Development) {
  return {
    id: d.id,
    slug: d.slug,
    nombre: d.nombre,
    nombreCorto: d.nombreCorto,
    ubicacion: d.ubicacion,
    divisa: d.divisa,
    imagenPortada: d.imagenPortada,
    imagenLogo: d.imagenLogo,
    presentacion: d.presentacion,
    amenidades: d.amenidades,
    tagsEtapaEntrega: d.tagsEtapaEntrega,
    galeria: d.galeria,
    fechaEntrega: d.fechaEntrega,
    esquemasPago: d.esquemasPago,
    opcionales: d.opcionales,
    // How the availability shows itself (spec §3): the façade's colours and the unit features
    // that the unit detail lists; public display settings, like the signed-in view's.
    configVistaNivel: { mostrarColorIndependienteFachada: showsFacadeColour(d) },
    caracteristicasUnidad: unitFeaturesOf(d),
  };
}

export function publicPrototype(p: Prototype) {
  return {
    id: p.id,
    nombre: p.nombre,
    activo: p.activo,
    caracteristicas: p.caracteristicas,
    metrajes: p.metrajes,
    imagen: p.imagen,
  };
}
