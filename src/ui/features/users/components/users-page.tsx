/**
 * `/corporativos/{slug}/usuarios` (issue 16). For a role that creates or edits users: the
 * corporate's users with search, role and status filters and pages (thousands of users), invite
 * and create, edit, deactivate and reactivate, resend and revoke invitations, and, for approvers,
 * the brokers' registrations waiting for approval ('Falta aprobación'). Anyone else sees their own
 * profile. Who may do what is core/permissions.ts, the rule the server applies too.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import {
  assignableRoles,
  mayApproveRegistrations,
  mayCreateUsers,
  mayEditMember,
  mayManageUsers,
  maySetAssignableRoles,
} from '../../../../core/permissions';
import type { Role } from '../../../../core/types';
import { EmailText } from '../../../components/email-text';
import { button, card } from '../../../components/styles';
import { errorMessage } from '../../../lib/errors';
import { toast } from '../../../lib/toast';
import { useCorporateContext } from '../../../layouts/corporate-context';
import { useCorporateLabel } from '../../../lib/corporate-labels';
import { useDateFormat } from '../../../lib/dates';
import { keepRowFocus } from '../../../lib/row-focus';
import {
  MEMBER_STATUSES,
  PAGE_SIZE,
  useInvitationAction,
  useReactivateUser,
  useRegistrations,
  useUsers,
  type MemberStatus,
  type RegistrationRequest,
  type UserListItem,
  type UsersFilters,
} from '../api/people';
import { input, label } from './form-styles';
import { MyProfile } from './my-profile';
import { SignInProviderNote } from './sign-in-provider-note';
import {
  ApproveDialog,
  DeactivateDialog,
  EditMemberDialog,
  NewMemberDialog,
  RejectDialog,
} from './user-dialogs';

export type UsersSearch = Partial<Omit<UsersFilters, 'pagina'>> & { pagina?: number };

const fullName = (u: { nombre: string; apellidos: string }) =>
  [u.nombre, u.apellidos].filter(Boolean).join(' ');

const STATUS_TONE: Record<MemberStatus, { bg: string; color: string }> = {
  activo: { bg: 'rgba(46,125,50,0.12)', color: '#1e5b22' },
  invitado: { bg: 'rgba(31,111,235,0.12)', color: '#164fa8' },
  pendiente: { bg: 'rgba(245,165,36,0.18)', color: '#7a4a00' },
  inactivo: { bg: 'rgba(90,90,90,0.14)', color: '#3b3b3b' },
};

function StatusBadge({ status }: { status: MemberStatus }) {
  const { t } = useTranslation('people');
  const tone = STATUS_TONE[status];
  return (
    <span
      data-status={status}
      style={{ background: tone.bg, color: tone.color }}
      className={css({
        display: 'inline-block',
        px: 2.5,
        py: 0.5,
        borderRadius: 'full',
        fontSize: 'xs',
        fontWeight: 'semibold',
        whiteSpace: 'nowrap',
      })}
    >
      {t(`users.statuses.${status}`)}
    </span>
  );
}

/** A row's dialog keeps focus in its row once its action succeeded (row-focus.ts). */
type Dialog =
  | { kind: 'invite' | 'create' }
  | { kind: 'edit' | 'deactivate'; member: UserListItem; refocus: () => void }
  | { kind: 'approve' | 'reject'; request: RegistrationRequest; refocus: () => void }
  | null;

export function UsersPage({
  search,
  onSearch,
}: {
  search: UsersSearch;
  onSearch: (next: UsersSearch) => void;
}) {
  const { role } = useCorporateContext();
  if (!mayManageUsers(role)) return <MyProfile />;
  return <UsersAdmin search={search} onSearch={onSearch} />;
}

function UsersAdmin({
  search,
  onSearch,
}: {
  search: UsersSearch;
  onSearch: (next: UsersSearch) => void;
}) {
  const { t, i18n } = useTranslation('people');
  const { corporate, user, role } = useCorporateContext();
  const m = { user, corporate, role: role! };
  const filters: UsersFilters = {
    q: search.q,
    rol: search.rol,
    estatus: search.estatus,
    pagina: search.pagina ?? 1,
  };
  const users = useUsers(corporate.id, filters);
  const approver = mayApproveRegistrations(m);
  const registrations = useRegistrations(user.id, corporate.id, approver);
  const assignable = assignableRoles(m);
  const invitations = useInvitationAction(corporate.id);
  const reactivate = useReactivateUser(corporate.id);
  const [dialog, setDialog] = useState<Dialog>(null);
  // Only an action that succeeded may have taken its button away, so only then does focus wait
  // for the refreshed row (row-focus.ts); a cancel starts nothing, and the dialog gives focus
  // back to the button that opened it (modal.tsx).
  const closeDialog = () => setDialog(null);
  const dialogDone = () => {
    if (dialog && 'refocus' in dialog) dialog.refocus();
    setDialog(null);
  };
  // Focus after a row action that took its button away (row-focus.ts): the button that replaced
  // it, the row's name, a neighbouring row's, or, with no row left, the page's heading.
  const heading = useRef<HTMLHeadingElement>(null);
  const rowFocus = (button: HTMLElement, replacement?: string) =>
    keepRowFocus(button, { replacement, fallback: () => heading.current });
  const [query, setQuery] = useState(search.q ?? '');
  const searchId = useId();
  const roleId = useId();
  const statusId = useId();
  // A role's name is the corporate's own word, in English where the corporate gave one.
  const corporateLabel = useCorporateLabel();
  const roleName = (id: string | null) => {
    const role = corporate.roles.find((r: Role) => r.id === id);
    return role ? corporateLabel('rol', role.nombre) : t('users.noRole');
  };
  const formatDate = useDateFormat(corporate.zonaHoraria);

  // The search box filters as the person types, a moment after they stop.
  useEffect(() => {
    const trimmed = query.trim();
    if (trimmed === (search.q ?? '')) return;
    const timer = setTimeout(
      () => onSearch({ ...search, q: trimmed || undefined, pagina: 1 }),
      300,
    );
    return () => clearTimeout(timer);
  }, [query, search, onSearch]);

  const total = users.data?.total ?? 0;
  const page = filters.pagina;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const from = total === 0 ? 0 : (page - 1) * PAGE_SIZE + 1;
  const to = Math.min(total, page * PAGE_SIZE);

  const actionsFor = (u: UserListItem) => {
    const name = fullName(u);
    const editable = u.id !== user.id && mayEditMember(m, u.idRol ?? undefined);
    const out: {
      key: string;
      label: string;
      aria: string;
      run: (button: HTMLElement) => void;
    }[] = [];
    if (u.estatus === 'pendiente') return out;
    if (editable && u.estatus !== 'inactivo')
      out.push({
        key: 'edit',
        label: t('users.edit'),
        aria: t('users.editOf', { name }),
        run: (b) => setDialog({ kind: 'edit', member: u, refocus: rowFocus(b, 'edit') }),
      });
    if (u.estatus === 'invitado' && mayCreateUsers(role)) {
      out.push({
        key: 'resend',
        label: t('users.resend'),
        aria: t('users.resendOf', { name }),
        run: (b) => {
          const refocus = rowFocus(b, 'resend');
          invitations.mutate(
            { id: u.id, action: 'reenviar' },
            {
              onSuccess: () => {
                toast.success(t('users.resent', { email: u.email }));
                refocus();
              },
              onError: (e) => toast.error(errorMessage(e)),
            },
          );
        },
      });
      out.push({
        key: 'revoke',
        label: t('users.revoke'),
        aria: t('users.revokeOf', { name }),
        run: (b) => {
          const refocus = rowFocus(b);
          invitations.mutate(
            { id: u.id, action: 'revocar' },
            {
              onSuccess: () => {
                toast.success(t('users.revoked'));
                refocus();
              },
              onError: (e) => toast.error(errorMessage(e)),
            },
          );
        },
      });
    }
    if (editable && u.estatus === 'activo')
      out.push({
        key: 'deactivate',
        label: t('users.deactivate'),
        aria: t('users.deactivateOf', { name }),
        run: (b) =>
          setDialog({ kind: 'deactivate', member: u, refocus: rowFocus(b, 'reactivate') }),
      });
    if (editable && u.estatus === 'inactivo')
      out.push({
        key: 'reactivate',
        label: t('users.reactivate'),
        aria: t('users.reactivateOf', { name }),
        run: (b) => {
          const refocus = rowFocus(b, 'deactivate');
          reactivate.mutate(u.id, {
            onSuccess: () => {
              toast.success(t('users.reactivated', { name }));
              refocus();
            },
            onError: (e) => toast.error(errorMessage(e)),
          });
        },
      });
    return out;
  };

  const smallButton = css({
    minH: 9,
    px: 3,
    fontSize: 'sm',
    fontWeight: 'medium',
    borderRadius: 'md',
    border: '1px solid',
    borderColor: 'border',
    bg: 'surface',
    color: 'text',
    cursor: 'pointer',
    whiteSpace: 'nowrap',
    _hover: { bg: 'rgba(0,0,0,0.04)' },
    _focusVisible: { outline: '2px solid', outlineColor: 'primary', outlineOffset: '2px' },
  });

  const pending = registrations.data ?? [];
  // The list waits for the pending requests above it: arriving after it, they pushed it and its
  // pager down.
  const requestsComing = approver && registrations.isPending;
  // The pager comes with the first list drawn (drawn before it, it was pushed down by it) and
  // then stays, so a page change keeps the focus on Previous or Next.
  const [pagerShown, setPagerShown] = useState(false);
  const listDrawn = Boolean(users.data) && !requestsComing;
  useEffect(() => {
    if (listDrawn) setPagerShown(true);
  }, [listDrawn]);

  return (
    // Its five columns need a tablet's whole width: the chat bubble's strip only from lg
    // (layouts/dashboard-layout.tsx).
    <div data-chat-strip="lg" className={css({ maxW: '72rem', mx: 'auto' })}>
      <div
        className={css({
          display: 'flex',
          flexWrap: 'wrap',
          alignItems: 'center',
          justifyContent: 'space-between',
          gap: 3,
          mb: 6,
        })}
      >
        <h2 ref={heading} tabIndex={-1} className={css({ fontSize: '2xl', fontWeight: 'bold' })}>
          {t('users.title')}
        </h2>
        {mayCreateUsers(role) ? (
          <div className={css({ display: 'flex', gap: 2, flexWrap: 'wrap' })}>
            <button
              type="button"
              className={button({ variant: 'ghost' })}
              onClick={() => setDialog({ kind: 'create' })}
            >
              {t('users.create')}
            </button>
            <button
              type="button"
              className={button()}
              onClick={() => setDialog({ kind: 'invite' })}
            >
              {t('users.invite')}
            </button>
          </div>
        ) : null}
      </div>
      <SignInProviderNote />

      {approver && pending.length > 0 ? (
        <section
          aria-labelledby="requests-title"
          data-testid="registration-requests"
          className={`${card()} ${css({ p: { base: 4, md: 6 }, mb: 6 })}`}
        >
          <h3 id="requests-title" className={css({ fontSize: 'lg', fontWeight: 'semibold' })}>
            {t('requests.title')}{' '}
            <span className={css({ color: 'muted', fontWeight: 'normal' })}>
              ({pending.length})
            </span>
          </h3>
          <p className={css({ fontSize: 'sm', color: 'muted', mb: 3 })}>{t('requests.intro')}</p>
          <ul className={css({ display: 'grid', gap: 3 })}>
            {pending.map((r) => {
              const name = fullName(r);
              return (
                <li
                  key={r.id}
                  data-request={r.email}
                  data-row
                  className={css({
                    display: 'flex',
                    flexWrap: 'wrap',
                    alignItems: 'center',
                    justifyContent: 'space-between',
                    gap: 3,
                    py: 3,
                    borderTopWidth: '1px',
                    borderColor: 'border',
                  })}
                >
                  <div>
                    <p className={css({ fontWeight: 'semibold' })}>
                      <span data-row-name tabIndex={-1}>
                        {name}
                      </span>{' '}
                      <StatusBadge status="pendiente" />
                    </p>
                    <p className={css({ fontSize: 'sm', color: 'muted' })}>
                      {[
                        r.email,
                        r.telefono ? t('requests.phone', { telefono: r.telefono }) : null,
                        r.inmobiliaria
                          ? t('requests.agency', { inmobiliaria: r.inmobiliaria })
                          : null,
                      ]
                        .filter(Boolean)
                        .join(' · ')}
                    </p>
                  </div>
                  <div className={css({ display: 'flex', gap: 2 })}>
                    <button
                      type="button"
                      className={smallButton}
                      aria-label={t('requests.rejectOf', { name })}
                      onClick={(e) =>
                        setDialog({
                          kind: 'reject',
                          request: r,
                          refocus: rowFocus(e.currentTarget),
                        })
                      }
                    >
                      {t('requests.reject')}
                    </button>
                    <button
                      type="button"
                      className={button()}
                      aria-label={t('requests.approveOf', { name })}
                      onClick={(e) =>
                        setDialog({
                          kind: 'approve',
                          request: r,
                          refocus: rowFocus(e.currentTarget),
                        })
                      }
                    >
                      {t('requests.approve')}
                    </button>
                  </div>
                </li>
              );
            })}
          </ul>
        </section>
      ) : null}

      <section className={`${card()} ${css({ p: { base: 4, md: 6 } })}`}>
        <div
          role="search"
          className={css({
            display: 'grid',
            gap: 3,
            // The selects as wide as their longest option ("Todos los estatus" was cut at 820 px).
            gridTemplateColumns: { base: '1fr', md: 'minmax(0, 1fr) auto auto' },
            mb: 4,
          })}
        >
          <div>
            <label htmlFor={searchId} className={label}>
              {t('users.search')}
            </label>
            <input
              id={searchId}
              type="search"
              value={query}
              onChange={(e) => setQuery(e.target.value)}
              className={input}
            />
          </div>
          <div>
            <label htmlFor={roleId} className={label}>
              {t('users.role')}
            </label>
            <select
              id={roleId}
              value={search.rol ?? ''}
              onChange={(e) => onSearch({ ...search, rol: e.target.value || undefined, pagina: 1 })}
              className={input}
            >
              <option value="">{t('users.allRoles')}</option>
              {corporate.roles.map((r) => (
                <option key={r.id} value={r.id}>
                  {corporateLabel('rol', r.nombre)}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor={statusId} className={label}>
              {t('users.status')}
            </label>
            <select
              id={statusId}
              value={search.estatus ?? ''}
              onChange={(e) =>
                onSearch({
                  ...search,
                  estatus: (e.target.value || undefined) as MemberStatus | undefined,
                  pagina: 1,
                })
              }
              className={input}
            >
              <option value="">{t('users.allStatuses')}</option>
              {MEMBER_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {t(`users.statuses.${s}`)}
                </option>
              ))}
            </select>
          </div>
        </div>

        {users.isError ? (
          <p role="alert" className={css({ color: 'danger' })}>
            {t('users.loadError')}
          </p>
        ) : !users.data || requestsComing ? (
          <p className={css({ color: 'muted' })}>{t('users.loading')}</p>
        ) : users.data.usuarios.length === 0 ? (
          <p className={css({ color: 'muted', py: 6, textAlign: 'center' })}>{t('users.empty')}</p>
        ) : (
          <div className={css({ overflowX: 'auto' })}>
            <table
              data-testid="users-table"
              aria-busy={users.isFetching}
              className={css({ w: '100%', borderCollapse: 'collapse', fontSize: 'sm' })}
            >
              <caption className={css({ srOnly: true })}>
                {t('users.caption', { corporativo: corporate.nombre })}
              </caption>
              <thead className={css({ display: { base: 'none', lg: 'table-header-group' } })}>
                <tr className={css({ borderBottomWidth: '1px', borderColor: 'border' })}>
                  {(['name', 'role', 'status', 'lastSession', 'actions'] as const).map((c) => (
                    <th
                      key={c}
                      scope="col"
                      className={css({
                        textAlign: 'left',
                        py: 2,
                        px: 2,
                        fontWeight: 'semibold',
                        color: 'muted',
                      })}
                    >
                      {t(`users.columns.${c}`)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {users.data.usuarios.map((u) => {
                  const actions = actionsFor(u);
                  const cell = css({
                    display: { base: 'block', lg: 'table-cell' },
                    px: 2,
                    py: { base: 0.5, lg: 3 },
                    verticalAlign: 'middle',
                  });
                  return (
                    <tr
                      key={u.id}
                      data-user={u.email}
                      data-row
                      className={css({
                        display: { base: 'block', lg: 'table-row' },
                        borderBottomWidth: '1px',
                        borderColor: 'border',
                        py: { base: 3, lg: 0 },
                      })}
                    >
                      <td className={cell}>
                        <span
                          data-row-name
                          tabIndex={-1}
                          className={css({ fontWeight: 'semibold' })}
                        >
                          {fullName(u)}
                        </span>
                        {u.id === user.id ? (
                          <span className={css({ color: 'muted' })}> ({t('users.me')})</span>
                        ) : null}
                        <br />
                        <EmailText
                          email={u.email}
                          className={css({ color: 'muted' })}
                          data-testid="user-email"
                        />
                      </td>
                      <td className={cell}>
                        {u.estatus === 'pendiente' ? '—' : roleName(u.idRol)}
                      </td>
                      <td className={cell}>
                        <StatusBadge status={u.estatus} />
                        {u.estatus === 'invitado' && u.invitacionVence ? (
                          <span
                            className={css({
                              display: 'block',
                              fontSize: 'xs',
                              color: 'muted',
                              mt: 1,
                            })}
                          >
                            {t('users.expires', { date: formatDate(u.invitacionVence) })}
                          </span>
                        ) : null}
                      </td>
                      <td className={`${cell} ${css({ color: 'muted' })}`}>
                        {/* Below 1024 px (a phone, a tablet) the columns stack: the cell says what it is. */}
                        <span className={css({ display: { base: 'inline', lg: 'none' } })}>
                          {t('users.columns.lastSession')}:{' '}
                        </span>
                        {u.sesionUltima ? formatDate(u.sesionUltima, 'dateTime') : t('users.never')}
                        {u.sesionUltima && u.navegador ? (
                          <span data-testid="last-session-browser">
                            {' '}
                            {t('users.browser', {
                              navegador:
                                u.navegador === 'Desconocido'
                                  ? t('users.browserUnknown')
                                  : u.navegador,
                            })}
                          </span>
                        ) : null}
                      </td>
                      <td className={cell}>
                        <div
                          className={css({
                            display: 'flex',
                            flexWrap: 'wrap',
                            gap: 2,
                            pt: { base: 2, lg: 0 },
                          })}
                        >
                          {actions.map((a) => (
                            <button
                              key={a.key}
                              type="button"
                              className={smallButton}
                              aria-label={a.aria}
                              data-row-action={a.key}
                              onClick={(e) => a.run(e.currentTarget)}
                            >
                              {a.label}
                            </button>
                          ))}
                        </div>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}

        {pagerShown || users.isError ? (
          <nav
            aria-label={t('users.pagination')}
            className={css({
              display: 'flex',
              alignItems: 'center',
              justifyContent: 'space-between',
              gap: 3,
              mt: 4,
              flexWrap: 'wrap',
            })}
          >
            <p
              data-testid="users-range"
              aria-live="polite"
              className={css({ color: 'muted', fontSize: 'sm' })}
            >
              {t('users.range', {
                from: from.toLocaleString(i18n.language),
                to: to.toLocaleString(i18n.language),
                total: total.toLocaleString(i18n.language),
              })}
            </p>
            <div className={css({ display: 'flex', gap: 2 })}>
              <button
                type="button"
                className={smallButton}
                disabled={page <= 1}
                onClick={() => onSearch({ ...search, pagina: page - 1 })}
              >
                {t('users.previous')}
              </button>
              <button
                type="button"
                className={smallButton}
                disabled={page >= pages}
                onClick={() => onSearch({ ...search, pagina: page + 1 })}
              >
                {t('users.next')}
              </button>
            </div>
          </nav>
        ) : null}
      </section>

      {dialog?.kind === 'invite' || dialog?.kind === 'create' ? (
        <NewMemberDialog
          mode={dialog.kind}
          corporateId={corporate.id}
          multiIdioma={corporate.multiIdioma}
          roles={assignable}
          onClose={closeDialog}
        />
      ) : null}
      {dialog?.kind === 'edit' ? (
        <EditMemberDialog
          member={dialog.member}
          corporateId={corporate.id}
          roles={assignable}
          allRoles={corporate.roles}
          canSetApprover={approver}
          canSetAssignable={maySetAssignableRoles(role!)}
          onClose={closeDialog}
          onDone={dialogDone}
        />
      ) : null}
      {dialog?.kind === 'deactivate' ? (
        <DeactivateDialog
          member={dialog.member}
          corporateId={corporate.id}
          onClose={closeDialog}
          onDone={dialogDone}
        />
      ) : null}
      {dialog?.kind === 'approve' ? (
        <ApproveDialog
          request={dialog.request}
          corporate={corporate}
          roles={assignable}
          onClose={closeDialog}
          onDone={dialogDone}
        />
      ) : null}
      {dialog?.kind === 'reject' ? (
        <RejectDialog
          request={dialog.request}
          corporateId={corporate.id}
          onClose={closeDialog}
          onDone={dialogDone}
        />
      ) : null}
    </div>
  );
}
