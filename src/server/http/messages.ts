/** Server-side message catalogue: what an API error says, in the caller's language (es default). */
export type Lang = 'es' | 'en';

const messages = {
  generic: {
    es: 'Ocurrió un error inesperado, por favor contacte a soporte técnico',
    en: 'An unexpected error occurred, please contact technical support',
  },
  validation: { es: 'Los datos enviados no son válidos', en: 'The data sent is not valid' },
  // Featured developments and tutorials (issue 20, server/content)
  featured_invalid: {
    es: 'Los desarrollos destacados deben ser desarrollos del corporativo',
    en: 'Featured developments must be developments of the corporate',
  },
  tutorial_invalid: {
    es: 'Cada tutorial necesita título y pasos en español e inglés',
    en: 'Each tutorial needs a title and steps in Spanish and English',
  },
  not_found: { es: 'No se encontró el recurso', en: 'The resource was not found' },
  route_not_found: { es: 'La ruta no existe', en: 'This route does not exist' },
  // CRM (issue 17; spec §8 missing-configuration messages)
  crm_no_config: {
    es: 'No existe config CRM en el corporativo',
    en: 'The corporate has no CRM configuration',
  },
  crm_no_authorize_uri: { es: 'No hay authorizeUri', en: 'authorizeUri is missing' },
  crm_no_scope: { es: 'No hay scope', en: 'scope is missing' },
  crm_no_token_uri: { es: 'No hay tokenUri', en: 'tokenUri is missing' },
  crm_no_insert_lead: { es: 'No hay insertLead', en: 'insertLead is missing' },
  crm_no_info_seller: { es: 'No hay infoSeller', en: 'infoSeller is missing' },
  crm_url_invalid: {
    es: 'La dirección debe ser https y estar en internet (no en una red interna)',
    en: 'The address must be https and on the internet (not on an internal network)',
  },
  crm_campo_invalid: {
    es: 'El nombre de campo del CRM no es válido',
    en: 'The CRM field name is not valid',
  },
  crm_state_invalid: {
    es: 'La autorización con el CRM no es válida o ya se usó. Vuelve a conectar',
    en: 'The CRM authorisation is not valid or was already used. Connect again',
  },
  crm_token_failed: {
    es: 'No se pudo autorizar con el CRM. Vuelve a intentarlo',
    en: 'The CRM authorisation failed. Please try again',
  },
  crm_reauthorize: {
    es: 'La sesión con el CRM expiró. Vuelve a conectar',
    en: 'The CRM session expired. Connect again',
  },
  crm_disconnected: {
    es: 'No estás conectado al CRM',
    en: 'You are not connected to the CRM',
  },
  crm_failed: {
    es: 'El CRM no respondió correctamente. Inténtalo más tarde',
    en: 'The CRM did not answer correctly. Please try again later',
  },
  crm_no_export_url: {
    es: 'No hay URL de exportación de clientes en el corporativo',
    en: 'The corporate has no lead export URL',
  },
  unauthenticated: { es: 'Inicia sesión para continuar', en: 'Sign in to continue' },
  forbidden_corporate: {
    es: 'No tienes permisos para ver el corporativo',
    en: 'You do not have permission to view this corporate',
  },
  forbidden: {
    es: 'No tienes permisos para realizar esta acción',
    en: 'You do not have permission to do this',
  },
  corporate_not_found: { es: 'No se encontró corporativo', en: 'Corporate not found' },
  development_not_found: { es: 'No se encontró el desarrollo', en: 'Development not found' },
  document_not_found: { es: 'No se encontró el documento', en: 'Document not found' },
  database_unavailable: {
    es: 'El servicio no está disponible por un momento. Intenta de nuevo en unos segundos',
    en: 'The service is unavailable for a moment. Try again in a few seconds',
  },
  // The notes calls' 404s: the spec's own Spanish texts, and their English.
  lead_document_not_found: {
    es: 'El documento no existe en la ruta especificada.',
    en: 'The document does not exist at the given path.',
  },
  note_not_found: {
    es: 'La nota con la clave {key} no existe.',
    en: 'The note with the key {key} does not exist.',
  },
  bad_credentials: {
    es: 'El correo o la contraseña no son correctos',
    en: 'The email or the password is not correct',
  },
  rate_limited: {
    es: 'Demasiados intentos. Intenta de nuevo en {minutes} minutos',
    en: 'Too many attempts. Try again in {minutes} minutes',
  },
  rate_limited_one_minute: {
    es: 'Demasiados intentos. Intenta de nuevo en 1 minuto',
    en: 'Too many attempts. Try again in 1 minute',
  },
  rate_limited_one_second: {
    es: 'Demasiados intentos. Intenta de nuevo en 1 segundo',
    en: 'Too many attempts. Try again in 1 second',
  },
  rate_limited_seconds: {
    es: 'Demasiados intentos. Intenta de nuevo en {seconds} segundos',
    en: 'Too many attempts. Try again in {seconds} seconds',
  },
  too_many_streams: {
    es: 'Hay demasiadas conexiones en vivo abiertas (máximo {max}). Cierra alguna pestaña e inténtalo de nuevo',
    en: 'Too many live connections are open (at most {max}). Close a tab and try again',
  },
  csrf: {
    es: 'Solicitud rechazada: origen no permitido',
    en: 'Request refused: origin not allowed',
  },
  body_too_large: {
    es: 'El cuerpo de la solicitud es demasiado grande',
    en: 'The request body is too large',
  },
  media_too_large: {
    es: 'El archivo supera el máximo de {max} MB para este tipo',
    en: 'The file is over the {max} MB limit for this kind',
  },
  media_type_refused: {
    es: 'El contenido del archivo no es de un tipo permitido ({allowed})',
    en: 'The file’s content is not an allowed type ({allowed})',
  },
  media_empty: { es: 'El archivo está vacío', en: 'The file is empty' },
  poster_not_found: {
    es: 'No se encontró la imagen de portada del video',
    en: 'The video’s poster image was not found',
  },
  range_not_satisfiable: {
    es: 'El rango solicitado no existe en el archivo',
    en: 'The requested range is not in the file',
  },
  invalid_json: {
    es: 'El cuerpo de la solicitud no es JSON válido',
    en: 'The request body is not valid JSON',
  },
  conflict: {
    es: 'El registro cambió mientras lo editabas',
    en: 'The record changed while you were editing it',
  },
  user_without_id: { es: 'El usuario no tiene id', en: 'El usuario no tiene id' },
  own_roles: {
    es: 'No puedes cambiar tus propios roles ni corporativos',
    en: 'You cannot change your own roles or corporates',
  },
  import_invalid: {
    es: 'El archivo tiene {count} errores; no se importó nada',
    en: 'The file has {count} errors; nothing was imported',
  },
  import_invalid_one: {
    es: 'El archivo tiene 1 error; no se importó nada',
    en: 'The file has 1 error; nothing was imported',
  },
  system_actor: { es: 'Sistema', en: 'System' },
  // Reasons of one line of an inventory CSV import (server/http/inventory.routes.ts).
  import_no_rows: { es: 'El archivo no tiene filas', en: 'The file has no rows' },
  import_too_many_rows: {
    es: 'Máximo {max} filas por archivo',
    en: 'At most {max} rows per file',
  },
  import_columns_missing: {
    es: 'Faltan las columnas: {columns}',
    en: 'These columns are missing: {columns}',
  },
  import_columns_count: {
    es: 'La fila tiene {got} columnas y el encabezado {expected}',
    en: 'The row has {got} columns and the header {expected}',
  },
  import_quote_unclosed: {
    es: 'Unas comillas se abren y no se cierran',
    en: 'A quote is opened and never closed',
  },
  import_quote_misplaced: {
    es: 'Comillas en medio de un campo; encierra el campo completo entre comillas',
    en: 'A quote in the middle of a field; wrap the whole field in quotes',
  },
  import_unreadable: { es: 'No se pudo leer el archivo CSV', en: 'The CSV file could not be read' },
  import_required: { es: '{field}: es obligatorio', en: '{field}: is required' },
  import_too_long: {
    es: '{field}: máximo {max} caracteres',
    en: '{field}: at most {max} characters',
  },
  import_type_invalid: {
    es: "tipo: debe ser 'prototipo' o 'unidad'",
    en: "tipo: must be 'prototipo' or 'unidad'",
  },
  import_number_required: { es: '{field}: número requerido', en: '{field}: a number is required' },
  import_integer_required: {
    es: '{field}: debe ser entero',
    en: '{field}: must be a whole number',
  },
  import_min: {
    es: '{field}: debe ser mayor o igual a {min}',
    en: '{field}: must be at least {min}',
  },
  import_max: {
    es: '{field}: debe ser menor o igual a {max}',
    en: '{field}: must be at most {max}',
  },
  import_prototype_exists: {
    es: 'el prototipo {name} ya existe',
    en: 'prototype {name} already exists',
  },
  import_prototype_unknown: {
    es: "el prototipo '{name}' no existe",
    en: "prototype '{name}' does not exist",
  },
  import_cluster_unknown: {
    es: "el cluster '{name}' no existe",
    en: "cluster '{name}' does not exist",
  },
  import_status_invalid: {
    es: "el estatus '{status}' no es válido",
    en: "status '{status}' is not valid",
  },
  import_unit_repeated: {
    es: 'la unidad {name} está repetida en el archivo',
    en: 'unit {name} appears twice in the file',
  },
  import_level_too_high: {
    es: 'nivel {level} mayor que los {levels} niveles de {cluster}',
    en: 'level {level} is above the {levels} levels of {cluster}',
  },
  import_position_too_high: {
    es: 'posición {position} mayor que las {positions} unidades por nivel de {cluster}',
    en: 'position {position} is beyond the {positions} units per level of {cluster}',
  },
  import_position_taken: {
    es: 'el nivel {level}, posición {position} de {cluster} ya es de la unidad {unit}',
    en: 'level {level}, position {position} of {cluster} already holds unit {unit}',
  },
  lead_duplicate: {
    es: 'Ya existe un cliente con ese correo o teléfono; lo atiende {nombre}',
    en: 'A client with that email or phone already exists; {nombre} looks after it',
  },
  lead_duplicate_own: {
    es: 'Esta persona ya es uno de tus clientes',
    en: 'This person is already one of your clients',
  },
  lead_assign_forbidden: {
    es: 'No tienes permisos para asignar clientes a otro asesor',
    en: 'You do not have permission to assign clients to another adviser',
  },
  lead_adviser_invalid: {
    es: 'El asesor no es miembro aprobado del corporativo',
    en: 'The adviser is not an approved member of this corporate',
  },
  lead_capture_received: {
    es: 'Gracias, hemos recibido tus datos. Un asesor te contactará pronto',
    en: 'Thank you, we have received your details. An adviser will contact you soon',
  },
  unit_not_found: { es: 'No se encontró la unidad', en: 'Unit not found' },
  unit_not_available: {
    es: 'La unidad ya no está disponible ({status})',
    en: 'This unit is no longer available ({status})',
  },
  unit_not_held: { es: 'La unidad no está apartada', en: 'This unit is not on hold' },
  unit_hold_invalid: {
    es: 'El apartado debe terminar después de ahora',
    en: 'A hold must end after now',
  },
  unit_not_quotable: {
    es: 'La unidad no se puede cotizar en su estatus actual ({status})',
    en: 'This unit cannot be quoted in its current status ({status})',
  },
  price_not_visible: {
    es: 'El precio de esta unidad no es público',
    en: 'The price of this unit is not public',
  },
  scheme_not_found: {
    es: 'El esquema de pago no aplica a esta unidad',
    en: 'This payment scheme does not apply to this unit',
  },
  scheme_invalid: {
    es: 'El esquema de pago no es válido: sus partes deben sumar 100 %',
    en: 'The payment scheme is not valid: its parts must add up to 100%',
  },
  optional_not_found: {
    es: 'El adicional no existe para esta unidad',
    en: 'This optional does not exist for this unit',
  },
  extra_invalid: {
    es: 'El precio de un extra no puede ser negativo',
    en: 'The price of an extra cannot be negative',
  },
  currency_not_found: {
    es: 'La divisa {codigo} no está disponible en el corporativo',
    en: 'The currency {codigo} is not available in this corporate',
  },
  cluster_not_found: { es: 'No se encontró el cluster', en: 'Cluster not found' },
  lead_not_found: { es: 'No se encontró el cliente', en: 'Client not found' },
  lead_forbidden: {
    es: 'No tienes permisos para cotizar a este cliente',
    en: 'You do not have permission to quote for this client',
  },
  quotation_not_found: { es: 'No se encontró la cotización', en: 'Quotation not found' },
  report_forbidden: {
    es: 'No tienes permisos para generar el reporte de cotizaciones',
    en: 'You do not have permission to generate the quotation report',
  },
  share_invalid: {
    es: 'El enlace de la cotización no es válido',
    en: 'This quotation link is not valid',
  },
  share_expired: {
    es: 'El enlace de la cotización ha expirado; pide uno nuevo a tu asesor',
    en: 'This quotation link has expired; ask your adviser for a new one',
  },
  share_revoked: {
    es: 'El asesor desactivó este enlace; pídele uno nuevo',
    en: 'The adviser has turned off this link; ask them for a new one',
  },
  share_not_found: {
    es: 'No se encontró el enlace de la cotización',
    en: 'Quotation link not found',
  },
  timer_not_found: { es: 'No se encontró el temporizador', en: 'Timer not found' },
  outbox_message_not_found: {
    es: 'No se encontró el mensaje de salida',
    en: 'Outbound message not found',
  },
  parked_event_not_found: {
    es: 'No se encontró el evento en cuarentena',
    en: 'Parked event not found',
  },
  not_retryable: {
    es: 'Solo se reintenta un trabajo que falló o quedó en cuarentena; este no',
    en: 'Only work that failed or was parked can be retried; this has not',
  },
  // Showroom check-in (server/check-ins).
  appointment_not_found: { es: 'No se encontró la cita', en: 'Appointment not found' },
  appointment_in_past: {
    es: 'La cita no puede empezar en el pasado',
    en: 'The appointment cannot start in the past',
  },
  appointment_cancelled: {
    es: 'La cita está cancelada y ya no se puede cambiar',
    en: 'The appointment is cancelled and can no longer change',
  },
  attendance_too_early: {
    es: 'Aún no se puede registrar la asistencia: la inasistencia desde la hora de la cita, la llegada desde su día',
    en: "Attendance cannot be recorded yet: a no-show from the appointment's time, an arrival from its day",
  },
  appointment_adviser_forbidden: {
    es: 'Solo puedes agendar citas para ti',
    en: 'You can only book appointments for yourself',
  },
  showroom_not_in_development: {
    es: 'El showroom no pertenece al desarrollo',
    en: 'The showroom does not belong to the development',
  },
  calendar_feed_not_found: {
    es: 'La suscripción al calendario no existe o fue revocada',
    en: 'The calendar subscription does not exist or was revoked',
  },
  showroom_not_found: { es: 'No se encontró el showroom', en: 'Showroom not found' },
  chat_disabled: {
    es: 'El asistente de chat no está activado en este corporativo',
    en: 'The chat assistant is not turned on for this corporate',
  },
  chat_failed: { es: 'Error al conectar con el bot', en: 'Could not connect to the bot' },
  showroom_inactive: { es: 'El showroom no está activo', en: 'This showroom is not active' },
  position_invalid: {
    es: 'La ubicación enviada no es válida',
    en: 'The location sent is not valid',
  },
  position_accuracy_invalid: {
    es: 'La precisión de la ubicación no es válida (máximo 5000 m); usa el código QR del showroom',
    en: "The location's accuracy is not valid (at most 5000 m); use the showroom's QR code",
  },
  check_in_too_far: {
    es: 'Estás a {distancia} m del showroom; el radio permitido es de {radio} m',
    en: 'You are {distancia} m from the showroom; the allowed radius is {radio} m',
  },
  check_in_not_found: { es: 'No se encontró el check-in', en: 'Check-in not found' },
  notification_not_found: {
    es: 'No se encontró la notificación',
    en: 'Notification not found',
  },
  notification_forbidden: {
    es: 'Solo puedes ver y marcar tus propias notificaciones',
    en: 'You can only read and mark your own notifications',
  },
  notification_no_recipients: {
    es: 'La notificación no tiene destinatarios',
    en: 'The notification has no recipients',
  },
  push_subscription_invalid: {
    es: 'La suscripción push no es válida',
    en: 'The push subscription is not valid',
  },
  notification_preferences_forbidden: {
    es: 'Solo puedes ver y cambiar tus propias preferencias de notificaciones',
    en: 'You can only see and change your own notification preferences',
  },
  push_endpoint_not_allowed: {
    es: 'El servicio push de la suscripción no está permitido',
    en: 'The subscription push service is not allowed',
  },
  check_in_forbidden: {
    es: 'Tu rol no hace check-in en los showrooms',
    en: 'Your role does not check in at showrooms',
  },
  folio_invalid: { es: 'El código QR no es válido', en: 'This QR code is not valid' },
  folio_expired: {
    es: 'El código QR ya no es válido; escanea el código de hoy en el showroom',
    en: "This QR code is no longer valid; scan today's code at the showroom",
  },
  guest_not_found: { es: 'No se encontró el invitado', en: 'Guest not found' },
  registration_exists: {
    es: 'Ya tienes una solicitud o acceso en este corporativo',
    en: 'You already have a request or access in this corporate',
  },
  registration_not_pending: {
    es: 'No hay una solicitud pendiente de aprobación',
    en: 'There is no request waiting for approval',
  },
  user_inactive: { es: 'El usuario está desactivado', en: 'The user is deactivated' },
  user_not_found: { es: 'No se encontró el usuario', en: 'User not found' },
  email_taken: {
    es: 'Ya existe un usuario con ese correo',
    en: 'A user with this email already exists',
  },
  weak_password: {
    es: 'La contraseña debe tener una mayúscula, un número y más de 8 caracteres',
    en: 'The password needs an uppercase letter, a digit and more than 8 characters',
  },
  role_not_assignable: {
    es: 'No puedes asignar ese rol',
    en: 'You cannot assign this role',
  },
  privileged_fields: {
    es: 'No puedes cambiar esos campos del usuario',
    en: 'You cannot change these fields of the user',
  },
  token_invalid: {
    es: 'El enlace no es válido o ya se usó',
    en: 'This link is not valid or has already been used',
  },
  token_expired: {
    es: 'El enlace expiró; solicita uno nuevo',
    en: 'This link has expired; ask for a new one',
  },
  invitation_not_found: {
    es: 'No se encontró la invitación pendiente',
    en: 'No pending invitation was found',
  },
  reassign_target_invalid: {
    es: 'Elige a otro asesor activo del corporativo para recibir sus clientes y citas',
    en: 'Choose another active adviser of the corporate to receive their clients and appointments',
  },
  cannot_deactivate_self: {
    es: 'No puedes desactivar tu propia cuenta',
    en: 'You cannot deactivate your own account',
  },
  user_in_other_corporates: {
    es: 'El usuario pertenece a otros corporativos que no administras',
    en: 'The user belongs to other corporates you do not manage',
  },
  agency_required: {
    es: 'Elige una inmobiliaria de la lista (con OTRO, escribe su nombre)',
    en: 'Choose a real-estate agency from the list (with OTRO, type its name)',
  },
  registration_closed: {
    es: 'Este corporativo no recibe registros de brokers',
    en: 'This corporate does not take broker registrations',
  },
  firebase_disabled: {
    es: 'Esta instalación no inicia sesión con Firebase',
    en: 'This deployment does not sign in with Firebase',
  },
  firebase_token_invalid: {
    es: 'No se pudo comprobar tu inicio de sesión. Vuelve a intentarlo',
    en: 'Your sign-in could not be verified. Please try again',
  },
  firebase_no_access: {
    es: 'Tu cuenta no tiene acceso a Vitrina. Pide una invitación a tu corporativo',
    en: 'Your account has no access to Vitrina. Ask your corporate for an invitation',
  },
  firebase_unavailable: {
    es: 'No se pudo conectar con el servicio de inicio de sesión. Inténtalo más tarde',
    en: 'The sign-in service could not be reached. Please try again later',
  },
} as const satisfies Record<string, Record<Lang, string>>;

export type MessageKey = keyof typeof messages;

export function message(key: MessageKey, lang: Lang, params: Record<string, string | number> = {}) {
  return messages[key][lang].replace(/\{(\w+)\}/g, (_, name: string) => String(params[name] ?? ''));
}

export function langFrom(header: string | undefined | null): Lang {
  if (!header) return 'es';
  const first = header.split(',')[0]?.trim().toLowerCase() ?? '';
  return first.startsWith('en') ? 'en' : 'es';
}
