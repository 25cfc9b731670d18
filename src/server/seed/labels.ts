/**
 * The demo corporates' own words in English (issue 19; core/corporate-labels.ts): the seed's
 * unit statuses, lead statuses, channels, payment schemes, categories, tags, optionals, the
 * stages' states (Residencial Los Olivos' clusters, every development's delivery tags), the
 * roles' names and the Clients label, so an English screen shows no Spanish data where a translation exists.
 */
import { normaliseLabels, type LabelSet } from '../../core/corporate-labels';

const english: Record<string, Record<string, string>> = {
  status: {
    Disponible: 'Available',
    Apartado: 'On hold',
    Bloqueado: 'Blocked',
    Reservado: 'Reserved',
    Vendido: 'Sold',
    'No Disponible': 'Not available',
    Incompleto: 'Incomplete',
    'Sin Estatus': 'No status',
  },
  statusLead: {
    Nuevo: 'New',
    Contactado: 'Contacted',
    'Visita agendada': 'Visit scheduled',
    Negociación: 'Negotiation',
    Cerrado: 'Closed',
    Perdido: 'Lost',
  },
  medioContacto: {
    Showroom: 'Showroom',
    'Sitio web': 'Website',
    Teléfono: 'Phone',
    WhatsApp: 'WhatsApp',
    Referido: 'Referral',
    'Redes sociales': 'Social media',
  },
  esquema: {
    Contado: 'Cash',
    '30/70': '30/70',
    'Financiamiento a entrega': 'Financing on delivery',
  },
  categoria: {
    Departamentos: 'Apartments',
    Casas: 'Houses',
    Playa: 'Beach',
    Preventa: 'Pre-sale',
  },
  tag: {
    Céntrico: 'Central',
    'Vista panorámica': 'Panoramic view',
    'Roof garden': 'Roof garden',
    'Jardín privado': 'Private garden',
    'Ideal para familias': 'Family friendly',
    'Vista al mar': 'Sea view',
    'Para renta vacacional': 'Holiday rental',
  },
  opcional: {
    Bodega: 'Storage room',
    'Cajón de estacionamiento adicional': 'Extra parking space',
    'Paquete de acabados premium': 'Premium finishes package',
  },
  etapa: {
    Entregada: 'Delivered',
    'En obra': 'Under construction',
    Preventa: 'Pre-sale',
    'Entrega 2027': 'Delivery 2027',
    'Etapa 1 entregada': 'Stage 1 delivered',
    'Etapa 2 en obra': 'Stage 2 under construction',
    'Etapa 3 preventa': 'Stage 3 pre-sale',
  },
  rol: {
    Administrador: 'Administrator',
    'Gerente de ventas': 'Sales manager',
    Asesor: 'Adviser',
    'Administrador de hostess': 'Host administrator',
    Broker: 'Broker',
  },
  clientes: { Clientes: 'Clients' },
};

const normalised = normaliseLabels(english);
if (!normalised.ok) throw new Error('the demo labels are not valid');
/** As stored (core/corporate-labels.ts `normaliseLabels`): the same labels set again write nothing. */
export const DEMO_ENGLISH_LABELS: LabelSet = normalised.labels;
