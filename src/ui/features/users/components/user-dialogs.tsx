/**
 * The users page's dialogs (issue 16): invite or create a user, edit a member (name, phone, role
 * under the role rule of spec §6), deactivate with the reassignment of their clients and
 * appointments, approve a broker's registration with a role, reject it with a reason.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { isValidEmail, isValidPhone } from '../../../../core/lead';
import type { Role } from '../../../../core/types';
import { Modal } from '../../../components/modal';
import { button } from '../../../components/styles';
import { ApiRequestError, apiQuery } from '../../../lib/api';
import { useCorporateLabel } from '../../../lib/corporate-labels';
import { errorMessage } from '../../../lib/errors';
import { toast } from '../../../lib/toast';
import {
  useApproveRegistration,
  useCreateUser,
  useDeactivateUser,
  useInviteUser,
  useRejectRegistration,
  useUpdateUser,
  type RegistrationRequest,
  type UserListItem,
} from '../api/people';
import { alert, fieldStack, input, label } from './form-styles';
import { PasswordField, passwordReady } from './password-field';

const fullName = (u: { nombre: string; apellidos: string }) =>
  [u.nombre, u.apellidos].filter(Boolean).join(' ');

/** What a field's control carries when the field is explained by an error (else nothing). */
interface FieldErrorProps {
  'aria-invalid': boolean;
  'aria-describedby': string | undefined;
}

/** A labelled field; with `error`, the text under the control, which describes it. */
function Field({
  label: text,
  error,
  children,
}: {
  label: string;
  error?: string | null;
  children: (id: string, errorProps: FieldErrorProps) => ReactNode;
}) {
  const id = useId();
  const errorId = useId();
  return (
    <div>
      <label htmlFor={id} className={label}>
        {text}
      </label>
      {children(id, { 'aria-invalid': !!error, 'aria-describedby': error ? errorId : undefined })}
      {error ? (
        <p id={errorId} className={fieldError} data-testid="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

const fieldError = css({ color: 'danger', fontSize: 'sm', mt: 1 });

function Actions({
  onCancel,
  submit,
  busy,
  busyText,
}: {
  onCancel: () => void;
  submit: string;
  busy: boolean;
  busyText: string;
}) {
  const { t } = useTranslation('people');
  return (
    <div
      className={css({
        display: 'flex',
        justifyContent: 'flex-end',
        gap: 3,
        mt: 2,
        flexWrap: 'wrap',
      })}
    >
      <button type="button" onClick={onCancel} className={button({ variant: 'ghost' })}>
        {t('dialog.cancel')}
      </button>
      {/* aria-disabled, not disabled, while saving: a disabled button drops the keyboard focus
          to the page; each form's submit ignores a second press meanwhile. */}
      <button type="submit" aria-disabled={busy} className={button()}>
        {busy ? busyText : submit}
      </button>
    </div>
  );
}

function ErrorLine({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p role="alert" className={alert}>
      {errorMessage(error)}
    </p>
  );
}

/** Whether a member's phone would be refused: empty is none; else the rule a lead's follows. */
const phoneInvalid = (value: string) => value.trim() !== '' && !isValidPhone(value.trim());

/** The member's phone, marked invalid and explained once the form was sent with a bad one. */
function PhoneField({
  value,
  onChange,
  showErrors,
}: {
  value: string;
  onChange: (value: string) => void;
  showErrors: boolean;
}) {
  const { t } = useTranslation('people');
  const invalid = showErrors && phoneInvalid(value);
  return (
    <Field label={t('dialog.telefono')} error={invalid ? t('dialog.phoneInvalid') : null}>
      {(id, errorProps) => (
        <input
          id={id}
          type="tel"
          autoComplete="off"
          value={value}
          onChange={(e) => onChange(e.target.value)}
          {...errorProps}
          className={input}
        />
      )}
    </Field>
  );
}

/** Whether an e-mail would be refused: empty is the required rule's; else a lead's rule. */
const emailInvalid = (value: string) => value.trim() !== '' && !isValidEmail(value.trim());

/** The server refused the request's `email` (its zod check is stricter than `isValidEmail`). */
const emailRefused = (error: unknown) =>
  error instanceof ApiRequestError &&
  Array.isArray(error.body) &&
  error.body.some(
    (item: { details?: { path?: unknown }[] } | null) =>
      Array.isArray(item?.details) && item.details.some((d) => d?.path === 'email'),
  );

/** Invite (`mode: 'invite'`) or create (`'create'`, with a password) a member of the corporate. */
export function NewMemberDialog({
  mode,
  corporateId,
  multiIdioma,
  roles,
  onClose,
}: {
  mode: 'invite' | 'create';
  corporateId: string;
  multiIdioma: boolean;
  roles: Role[];
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation('people');
  const roleLabel = useCorporateLabel();
  const invite = useInviteUser();
  const create = useCreateUser();
  const mutation = mode === 'invite' ? invite : create;
  const [f, setF] = useState<{
    nombre: string;
    apellidos: string;
    email: string;
    telefono: string;
    idRol: string;
    idioma: 'es' | 'en';
  }>({
    nombre: '',
    apellidos: '',
    email: '',
    telefono: '',
    idRol: roles.find((r) => !r.permisos.activarAdminUsuarios)?.id ?? roles[0]?.id ?? '',
    idioma: i18n.language === 'en' && multiIdioma ? 'en' : 'es',
  });
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [submitted, setSubmitted] = useState(false);
  /** The e-mail as the server refused it (the message stays until it is changed). */
  const [refusedEmail, setRefusedEmail] = useState<string | null>(null);
  /** Bumped by each refused send: the first invalid field then takes the focus. */
  const [refusals, setRefusals] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (refusals > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [refusals]);
  const set = (key: Exclude<keyof typeof f, 'idioma'>) => (value: string) =>
    setF((v) => ({ ...v, [key]: value }));
  const nombreError = submitted && !f.nombre.trim() ? t('registration.required') : null;
  const emailError = !submitted
    ? null
    : !f.email.trim()
      ? t('registration.required')
      : emailInvalid(f.email) || f.email === refusedEmail
        ? t('dialog.emailInvalid')
        : null;
  const onError = (error: unknown) => {
    if (!emailRefused(error)) return;
    setRefusedEmail(f.email);
    setRefusals((n) => n + 1);
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    if (mutation.isPending) return;
    if (
      !f.nombre.trim() ||
      !f.email.trim() ||
      emailInvalid(f.email) ||
      f.email === refusedEmail ||
      !f.idRol ||
      phoneInvalid(f.telefono) ||
      (mode === 'create' && !passwordReady(password, confirm))
    ) {
      setRefusals((n) => n + 1);
      return;
    }
    const body = {
      idCorporativo: corporateId,
      nombre: f.nombre.trim(),
      apellidos: f.apellidos.trim(),
      email: f.email.trim(),
      idRol: f.idRol,
      idioma: f.idioma,
      ...(f.telefono.trim() ? { telefono: f.telefono.trim() } : {}),
    };
    if (mode === 'invite') {
      invite.mutate(body, {
        onSuccess: (res) => {
          toast.success(
            res.existente
              ? t('dialog.added', { email: body.email })
              : t('dialog.invited', { email: body.email }),
          );
          onClose();
        },
        onError,
      });
    } else {
      create.mutate(
        { ...body, password },
        {
          onSuccess: () => {
            toast.success(t('dialog.created', { email: body.email }));
            onClose();
          },
          onError,
        },
      );
    }
  };

  return (
    <Modal
      title={mode === 'invite' ? t('dialog.inviteTitle') : t('dialog.createTitle')}
      onClose={onClose}
    >
      {roles.length === 0 ? (
        <p className={alert}>{t('dialog.noAssignable')}</p>
      ) : (
        <form
          ref={formRef}
          onSubmit={submit}
          noValidate
          className={fieldStack}
          data-testid={`${mode}-form`}
        >
          <p className={css({ fontSize: 'sm', color: 'muted' })}>
            {mode === 'invite' ? t('dialog.inviteIntro') : t('dialog.createIntro')}
          </p>
          <div
            className={css({
              display: 'grid',
              gap: 4,
              gridTemplateColumns: { base: '1fr', sm: '1fr 1fr' },
            })}
          >
            <Field label={t('dialog.nombre')} error={nombreError}>
              {(id, errorProps) => (
                <input
                  id={id}
                  required
                  autoComplete="off"
                  value={f.nombre}
                  onChange={(e) => set('nombre')(e.target.value)}
                  {...errorProps}
                  className={input}
                />
              )}
            </Field>
            <Field label={t('dialog.apellidos')}>
              {(id) => (
                <input
                  id={id}
                  autoComplete="off"
                  value={f.apellidos}
                  onChange={(e) => set('apellidos')(e.target.value)}
                  className={input}
                />
              )}
            </Field>
          </div>
          <Field label={t('dialog.email')} error={emailError}>
            {(id, errorProps) => (
              <input
                id={id}
                type="email"
                required
                autoComplete="off"
                value={f.email}
                onChange={(e) => set('email')(e.target.value)}
                {...errorProps}
                className={input}
              />
            )}
          </Field>
          <div
            className={css({
              display: 'grid',
              gap: 4,
              gridTemplateColumns: { base: '1fr', sm: '1fr 1fr' },
            })}
          >
            <Field label={t('dialog.role')}>
              {(id) => (
                <select
                  id={id}
                  value={f.idRol}
                  onChange={(e) => set('idRol')(e.target.value)}
                  className={input}
                >
                  {roles.map((r) => (
                    <option key={r.id} value={r.id}>
                      {roleLabel('rol', r.nombre)}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            {multiIdioma ? (
              <Field label={t('dialog.language')}>
                {(id) => (
                  <select
                    id={id}
                    value={f.idioma}
                    onChange={(e) =>
                      setF((v) => ({ ...v, idioma: e.target.value === 'en' ? 'en' : 'es' }))
                    }
                    className={input}
                  >
                    <option value="es">{t('dialog.languages.es')}</option>
                    <option value="en">{t('dialog.languages.en')}</option>
                  </select>
                )}
              </Field>
            ) : (
              <PhoneField value={f.telefono} onChange={set('telefono')} showErrors={submitted} />
            )}
          </div>
          {mode === 'create' ? (
            <PasswordField
              value={password}
              onChange={setPassword}
              confirm={confirm}
              onConfirmChange={setConfirm}
              showErrors={submitted}
            />
          ) : null}
          {/* A refused e-mail is explained at its field, not again as the generic error. */}
          <ErrorLine error={emailRefused(mutation.error) ? null : mutation.error} />
          <Actions
            onCancel={onClose}
            submit={mode === 'invite' ? t('dialog.sendInvite') : t('dialog.createSubmit')}
            busy={mutation.isPending}
            busyText={t('dialog.saving')}
          />
        </form>
      )}
    </Modal>
  );
}

/** A manager edits a member: names, phone and, where they may, the role in this corporate. */
export function EditMemberDialog({
  member,
  corporateId,
  roles,
  allRoles,
  canSetApprover,
  canSetAssignable,
  onClose,
  onDone,
}: {
  member: UserListItem;
  corporateId: string;
  /** The roles the editor may give (the member's current one is among them, or not editable). */
  roles: Role[];
  /** Every role of the corporate (the member's `rolesAsignacion` choices). */
  allRoles: Role[];
  /** The editor approves registrations, so may make the member an approver. */
  canSetApprover: boolean;
  /** The editor has `activarAdminUsuarios`, so sets which roles the member may give. */
  canSetAssignable: boolean;
  /** Closes the dialog without acting (Escape, the backdrop, the close or cancel button). */
  onClose: () => void;
  /** Closes the dialog once its action succeeded (the row may have changed: row-focus.ts). */
  onDone: () => void;
}) {
  const { t } = useTranslation('people');
  const roleLabel = useCorporateLabel();
  const update = useUpdateUser();
  const [f, setF] = useState({
    nombre: member.nombre,
    apellidos: member.apellidos,
    telefono: member.telefono ?? '',
    idRol: member.idRol ?? '',
  });
  const [approver, setApprover] = useState(member.aprobarRegistro);
  const [assigns, setAssigns] = useState<string[]>(member.rolesAsignacion);
  const assignsChanged =
    [...assigns].sort().join(',') !== [...member.rolesAsignacion].sort().join(',');
  const set = (key: keyof typeof f) => (value: string) => setF((v) => ({ ...v, [key]: value }));
  const canChangeRole = member.idRol !== null && roles.some((r) => r.id === member.idRol);
  const [submitted, setSubmitted] = useState(false);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    if (!f.nombre.trim() || phoneInvalid(f.telefono) || update.isPending) return;
    update.mutate(
      {
        id: member.id,
        nombre: f.nombre.trim(),
        apellidos: f.apellidos.trim(),
        ...(f.telefono.trim() ? { telefono: f.telefono.trim() } : {}),
        ...(canChangeRole && f.idRol !== member.idRol ? { roles: { [corporateId]: f.idRol } } : {}),
        ...(canSetApprover && approver !== member.aprobarRegistro
          ? { aprobarRegistro: approver }
          : {}),
        ...(canSetAssignable && assignsChanged
          ? { rolesAsignacion: { [corporateId]: assigns } }
          : {}),
      },
      {
        onSuccess: () => {
          toast.success(t('dialog.saved'));
          onDone();
        },
      },
    );
  };
  return (
    <Modal title={t('dialog.editTitle')} onClose={onClose}>
      <form onSubmit={submit} noValidate className={fieldStack} data-testid="edit-form">
        <p className={css({ fontSize: 'sm', color: 'muted' })}>{member.email}</p>
        <div
          className={css({
            display: 'grid',
            gap: 4,
            gridTemplateColumns: { base: '1fr', sm: '1fr 1fr' },
          })}
        >
          <Field label={t('dialog.nombre')}>
            {(id) => (
              <input
                id={id}
                required
                value={f.nombre}
                onChange={(e) => set('nombre')(e.target.value)}
                aria-invalid={!f.nombre.trim()}
                className={input}
              />
            )}
          </Field>
          <Field label={t('dialog.apellidos')}>
            {(id) => (
              <input
                id={id}
                value={f.apellidos}
                onChange={(e) => set('apellidos')(e.target.value)}
                className={input}
              />
            )}
          </Field>
        </div>
        <PhoneField value={f.telefono} onChange={set('telefono')} showErrors={submitted} />
        {canChangeRole ? (
          <Field label={t('dialog.role')}>
            {(id) => (
              <select
                id={id}
                value={f.idRol}
                onChange={(e) => set('idRol')(e.target.value)}
                className={input}
              >
                {roles.map((r) => (
                  <option key={r.id} value={r.id}>
                    {roleLabel('rol', r.nombre)}
                  </option>
                ))}
              </select>
            )}
          </Field>
        ) : null}
        {canSetApprover ? (
          <label className={css({ display: 'flex', gap: 2, alignItems: 'center', fontSize: 'sm' })}>
            <input
              type="checkbox"
              checked={approver}
              onChange={(e) => setApprover(e.target.checked)}
              className={css({ w: 4, h: 4 })}
            />
            {t('dialog.approver')}
          </label>
        ) : null}
        {canSetAssignable ? (
          <fieldset className={css({ border: 'none', p: 0, m: 0 })}>
            <legend className={label}>{t('dialog.assignable')}</legend>
            <p className={css({ fontSize: 'xs', color: 'muted', mb: 2 })}>
              {t('dialog.assignableHint')}
            </p>
            <div className={css({ display: 'flex', flexWrap: 'wrap', gap: 3 })}>
              {allRoles.map((r) => (
                <label
                  key={r.id}
                  className={css({ display: 'flex', gap: 2, alignItems: 'center', fontSize: 'sm' })}
                >
                  <input
                    type="checkbox"
                    checked={assigns.includes(r.id)}
                    onChange={(e) =>
                      setAssigns((list) =>
                        e.target.checked ? [...list, r.id] : list.filter((x) => x !== r.id),
                      )
                    }
                    className={css({ w: 4, h: 4 })}
                  />
                  {roleLabel('rol', r.nombre)}
                </label>
              ))}
            </div>
          </fieldset>
        ) : null}
        <ErrorLine error={update.error} />
        <Actions
          onCancel={onClose}
          submit={t('dialog.save')}
          busy={update.isPending}
          busyText={t('dialog.saving')}
        />
      </form>
    </Modal>
  );
}

interface Adviser {
  id: string;
  nombre: string;
  apellidos: string;
}

/** Deactivates a member; their clients and upcoming appointments go to the adviser chosen. */
export function DeactivateDialog({
  member,
  corporateId,
  onClose,
  onDone,
}: {
  member: UserListItem;
  corporateId: string;
  /** Closes the dialog without acting (Escape, the backdrop, the close or cancel button). */
  onClose: () => void;
  /** Closes the dialog once its action succeeded (the row may have changed: row-focus.ts). */
  onDone: () => void;
}) {
  const { t } = useTranslation('people');
  const deactivate = useDeactivateUser(corporateId);
  const advisers = useQuery(
    apiQuery<Adviser[]>('wsObtenerAsesores', { idCorporativo: corporateId }),
  );
  const options = (advisers.data ?? []).filter((a) => a.id !== member.id);
  const [heir, setHeir] = useState('');
  const name = fullName(member);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (deactivate.isPending) return;
    deactivate.mutate(
      { id: member.id, reasignarA: heir || null },
      {
        onSuccess: (res) => {
          toast.success(
            t('dialog.deactivated', {
              name,
              leads: res.leadsReasignados,
              citas: res.citasReasignadas,
            }),
          );
          onDone();
        },
      },
    );
  };
  return (
    <Modal title={t('dialog.deactivateTitle')} onClose={onClose}>
      <form onSubmit={submit} noValidate className={fieldStack} data-testid="deactivate-form">
        <p>{t('dialog.deactivateIntro', { name })}</p>
        <Field label={t('dialog.reassign')}>
          {(id) => (
            <select
              id={id}
              value={heir}
              onChange={(e) => setHeir(e.target.value)}
              className={input}
            >
              <option value="">{t('dialog.reassignNone')}</option>
              {options.map((a) => (
                <option key={a.id} value={a.id}>
                  {fullName(a)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <p className={css({ fontSize: 'sm', color: 'muted', mt: -2 })}>
          {t('dialog.reassignHint')}
        </p>
        <ErrorLine error={deactivate.error} />
        <Actions
          onCancel={onClose}
          submit={t('dialog.deactivateSubmit')}
          busy={deactivate.isPending}
          busyText={t('dialog.saving')}
        />
      </form>
    </Modal>
  );
}

/** Approves a broker's registration with a role the approver may give (the Broker role first). */
export function ApproveDialog({
  request,
  corporate,
  roles,
  onClose,
  onDone,
}: {
  request: RegistrationRequest;
  corporate: { id: string; nombre: string };
  roles: Role[];
  /** Closes the dialog without acting (Escape, the backdrop, the close or cancel button). */
  onClose: () => void;
  /** Closes the dialog once its action succeeded (the row may have changed: row-focus.ts). */
  onDone: () => void;
}) {
  const { t } = useTranslation('people');
  const roleLabel = useCorporateLabel();
  const approve = useApproveRegistration(corporate.id);
  const preferred = roles.find((r) => r.nombre.trim().toLowerCase() === 'broker') ?? roles[0];
  const [idRol, setIdRol] = useState(preferred?.id ?? '');
  const name = fullName(request);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!idRol || approve.isPending) return;
    approve.mutate(
      { id: request.id, idRol },
      {
        onSuccess: () => {
          toast.success(t('requests.approved', { name }));
          onDone();
        },
      },
    );
  };
  return (
    <Modal title={t('requests.approveTitle')} onClose={onClose}>
      <form onSubmit={submit} noValidate className={fieldStack} data-testid="approve-form">
        <p>{t('requests.approveIntro', { name, corporativo: corporate.nombre })}</p>
        {roles.length === 0 ? (
          <p className={alert}>{t('dialog.noAssignable')}</p>
        ) : (
          <Field label={t('dialog.role')}>
            {(id) => (
              <select
                id={id}
                value={idRol}
                onChange={(e) => setIdRol(e.target.value)}
                className={input}
              >
                {roles.map((r) => (
                  <option key={r.id} value={r.id}>
                    {roleLabel('rol', r.nombre)}
                  </option>
                ))}
              </select>
            )}
          </Field>
        )}
        <ErrorLine error={approve.error} />
        <Actions
          onCancel={onClose}
          submit={t('requests.approve')}
          busy={approve.isPending}
          busyText={t('dialog.saving')}
        />
      </form>
    </Modal>
  );
}

export function RejectDialog({
  request,
  corporateId,
  onClose,
  onDone,
}: {
  request: RegistrationRequest;
  corporateId: string;
  /** Closes the dialog without acting (Escape, the backdrop, the close or cancel button). */
  onClose: () => void;
  /** Closes the dialog once its action succeeded (the row may have changed: row-focus.ts). */
  onDone: () => void;
}) {
  const { t } = useTranslation('people');
  const reject = useRejectRegistration(corporateId);
  const [motivo, setMotivo] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    if (!motivo.trim() || reject.isPending) return;
    reject.mutate(
      { id: request.id, motivo: motivo.trim() },
      {
        onSuccess: () => {
          toast.success(t('requests.rejected'));
          onDone();
        },
      },
    );
  };
  return (
    <Modal title={t('requests.rejectTitle')} onClose={onClose}>
      <form onSubmit={submit} noValidate className={fieldStack} data-testid="reject-form">
        <p>{fullName(request)}</p>
        <Field label={t('requests.reason')}>
          {(id) => (
            <textarea
              id={id}
              required
              rows={3}
              value={motivo}
              onChange={(e) => setMotivo(e.target.value)}
              aria-invalid={submitted && !motivo.trim()}
              className={`${input} ${css({ py: 2 })}`}
            />
          )}
        </Field>
        <ErrorLine error={reject.error} />
        <Actions
          onCancel={onClose}
          submit={t('requests.reject')}
          busy={reject.isPending}
          busyText={t('dialog.saving')}
        />
      </form>
    </Modal>
  );
}
