/**
 * The demo's tutorials (issue 20): short guides to the tasks a new adviser does first, in
 * Spanish and English, as the corporate's administrator would write them.
 */
import type { Tutorial } from '../../core/tutorials';

export function demoTutorials(): Tutorial[] {
  return [
    {
      id: 'tut-cotizar',
      activo: true,
      orden: 1,
      es: {
        titulo: 'Cotizar una unidad',
        pasos: [
          'En Desarrollos, abre el desarrollo y entra a Disponibilidad.',
          'Elige una unidad en verde (Disponible) para ver su ficha y su precio.',
          'Pulsa «Cotizar», escoge el esquema de pago y, si aplica, adicionales.',
          'Elige al cliente (o regístralo ahí mismo) y guarda: la cotización queda en su ficha y puedes compartirla.',
        ],
      },
      en: {
        titulo: 'Quote a unit',
        pasos: [
          'In Developments, open the development and go to Availability.',
          'Pick a green (Available) unit to see its details and price.',
          'Press “Quote”, choose the payment scheme and any extras.',
          'Choose the client (or register them right there) and save: the quotation is kept on their record and you can share it.',
        ],
      },
    },
    {
      id: 'tut-cliente',
      activo: true,
      orden: 2,
      es: {
        titulo: 'Registrar un cliente',
        pasos: [
          'Abre Clientes en el menú y pulsa «Nuevo cliente».',
          'Escribe nombre, apellidos y al menos un correo o teléfono; elige el desarrollo de interés y el medio de contacto.',
          'Guarda: el cliente queda asignado a ti y aparece primero en la lista.',
          'Desde su ficha agrega notas de seguimiento, agenda citas o escríbele por WhatsApp.',
        ],
      },
      en: {
        titulo: 'Register a client',
        pasos: [
          'Open Clients in the menu and press “New client”.',
          'Enter first and last name and at least an e-mail or phone; choose the development of interest and the contact channel.',
          'Save: the client is assigned to you and shows first in the list.',
          'From their record add follow-up notes, book appointments or message them on WhatsApp.',
        ],
      },
    },
    {
      id: 'tut-comparar',
      activo: true,
      orden: 3,
      es: {
        titulo: 'Comparar unidades',
        pasos: [
          'En la ficha de una unidad pulsa «Agregar al comparador».',
          'Agrega hasta cuatro unidades del mismo desarrollo.',
          'Abre Comparador para verlas lado a lado: precio, superficie, recámaras y estatus.',
        ],
      },
      en: {
        titulo: 'Compare units',
        pasos: [
          'On a unit’s details press “Add to comparator”.',
          'Add up to four units of the same development.',
          'Open Comparator to see them side by side: price, area, bedrooms and status.',
        ],
      },
    },
  ];
}
