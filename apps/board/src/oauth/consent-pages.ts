/**
 * The sign-in and consent pages of the authorization server: a person signs in (password, or a one-time link
 * the CLI printed), sees which client asks, where it will be sent back to and what it asks for, and approves it
 * as themselves or as a new assistant member they name, with a role no higher than their own, or denies it.
 * Server-rendered, no script, CSRF-protected, with strict security headers.
 *
 * @packageDocumentation
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type Provider from 'oidc-provider';
import type { Member } from '../domain/member.ts';
import { ROLES, isRole, type Role } from '../domain/roles.ts';
import type { MemberService } from '../services/member-service.ts';
import {
  createCsrf,
  createWebSessions,
  CSRF_FIELD,
  formActionSource,
  html,
  signInFields,
  readCookies,
  readForm,
  redirect,
  sendPage,
  sendProblem,
  setCookie,
  type SafeHtml,
  type Signer,
} from '../pages/index.ts';
import type { MemberAccounts } from './member-accounts.ts';
import type { OAuthStore } from './oauth-store.ts';
import { BOARD_SCOPES, roleAtMost } from './oauth-scopes.ts';
import { createSigninLinkPages } from './signin-link-pages.ts';

const INTERACTION = '/oauth/interaction/';
const PENDING_COOKIE = 'rb_pending';
const MAX_NAME_LENGTH = 80;

/** What the pages need. */
export interface ConsentPageDeps {
  readonly provider: Provider;
  readonly accounts: MemberAccounts;
  readonly members: MemberService;
  readonly store: OAuthStore;
  readonly signer: Signer;
  readonly issuer: string;
  readonly secure: boolean;
  readonly log: Logger;
  readonly now?: (() => Date) | undefined;
}

type Details = Awaited<ReturnType<Provider['interactionDetails']>>;

/** A request parameter as text ('' when absent or not a string). */
const param = (value: unknown): string => (typeof value === 'string' ? value : '');

/** Creates the page routes: `/oauth/interaction/<uid>[/login|/confirm|/deny]` and `/signin`. */
export function createConsentPages(deps: ConsentPageDeps) {
  const { provider, accounts, signer, log } = deps;
  const csrf = createCsrf(signer, { origin: deps.issuer, secure: deps.secure });
  const sessions = createWebSessions(signer, { secure: deps.secure });
  const now = deps.now ?? (() => new Date());

  async function details(req: IncomingMessage, res: ServerResponse): Promise<Details | undefined> {
    try {
      return await provider.interactionDetails(req, res);
    } catch (error) {
      // The library's SessionNotFound: the interaction cookie is missing, expired or already used.
      if (!(error instanceof Error && error.name === 'SessionNotFound')) throw error;
      sendProblem(
        res,
        400,
        'Sign-in request expired',
        'This sign-in request has expired, was already finished, or was opened in another browser.',
        'Nothing was approved. Go back to the application and start the sign-in again.',
      );
      return undefined;
    }
  }

  async function checkForm(req: IncomingMessage, res: ServerResponse, purpose: string) {
    const form = await readForm(req);
    if (!form.ok) {
      sendProblem(res, form.status, 'Form refused', form.message, 'Nothing was changed.');
      return undefined;
    }
    const verdict = csrf.verify(req, form.fields.get(CSRF_FIELD) ?? undefined, purpose);
    if (!verdict.ok) {
      log.warn({ purpose: purpose.split(':')[0], reason: verdict.reason }, 'page form refused (CSRF)');
      sendProblem(
        res,
        403,
        'Form refused',
        `The form was refused because ${verdict.reason}.`,
        'Nothing was approved or changed. Reload the page you came from and send the form from there.',
      );
      return undefined;
    }
    return form.fields;
  }

  function loginPage(
    req: IncomingMessage,
    res: ServerResponse,
    uid: string,
    clientName: string,
    error?: string,
  ) {
    const token = csrf.issue(req, res, `login:${uid}`);
    setCookie(res, PENDING_COOKIE, uid, { maxAge: 600, secure: deps.secure });
    sendPage(
      res,
      'Sign in to Recourse Board',
      html`${error === undefined ? '' : html`<p class="error" role="alert" id="login-error">${error}</p>`}
        <p>
          <strong>${clientName}</strong> wants to use the board on your behalf. Sign in first; you decide what
          it may do next.
        </p>
        <form method="post" action="${INTERACTION}${uid}/login">${signInFields(token)}</form>
        <p class="note">
          No password yet? The board owner can set one (<code
            >recourse-board members password --member &lt;id&gt;</code
          >) or print a one-time sign-in link (<code
            >recourse-board members signin-link --member &lt;id&gt;</code
          >); open the link in this browser.
        </p>`,
      { status: error === undefined ? 200 : 401 },
    );
  }

  async function clientLabel(clientId: string): Promise<{ name: string; id: string }> {
    const client = await provider.Client.find(clientId);
    const name =
      typeof client?.clientName === 'string' && client.clientName !== '' ? client.clientName : clientId;
    return { name, id: clientId };
  }

  function consentPage(
    req: IncomingMessage,
    res: ServerResponse,
    interaction: Details,
    client: { name: string; id: string },
    approver: Member,
    problem?: string,
  ) {
    const { uid, params } = interaction;
    const token = csrf.issue(req, res, `consent:${uid}`);
    const redirectUri = param(params['redirect_uri']);
    const requested = param(params['scope'])
      .split(' ')
      .filter((s) => s !== '');
    const known = BOARD_SCOPES.filter((s) => requested.includes(s.name));
    const others = requested.filter((s) => !BOARD_SCOPES.some((b) => b.name === s));
    const roles = ROLES.filter((r) => isRole(approver.role) && roleAtMost(r, approver.role));
    const scopeList: SafeHtml = html`<ul>
      ${
        known.length === 0
          ? html`<li>No specific scope: everything your chosen role allows.</li>`
          : known.map((s) => html`<li><code>${s.name}</code>: ${s.description}</li>`)
      }${others.map((s) =>
        s === 'offline_access'
          ? html`<li><code>offline_access</code>: stay signed in (refresh its access)</li>`
          : html`<li><code>${s}</code>: not a board scope; it gives nothing</li>`,
      )}
    </ul>`;
    const source = formActionSource(redirectUri);
    sendPage(
      res,
      'Approve access to the board',
      html`${problem === undefined ? '' : html`<p class="error" role="alert">${problem}</p>`}
        <p>Signed in as <strong>${approver.name}</strong> (${approver.id}, ${approver.role}).</p>
        <dl>
          <dt>Application</dt>
          <dd><strong>${client.name}</strong> (client id <code>${client.id}</code>)</dd>
          <dt>Sends you back to</dt>
          <dd><code>${redirectUri}</code></dd>
          <dt>Asks to</dt>
          <dd>${scopeList}</dd>
        </dl>
        <form method="post" action="${INTERACTION}${uid}/confirm">
          <input type="hidden" name="${CSRF_FIELD}" value="${token}" />
          <fieldset>
            <legend>Who should it act as?</legend>
            <label
              ><input type="radio" name="act" value="self" checked /> As me, ${approver.name}
              (${approver.role})</label
            >
            <label><input type="radio" name="act" value="assistant" /> As a new assistant member</label>
            <label for="assistant-name">Assistant's name</label>
            <input
              id="assistant-name"
              name="assistant_name"
              maxlength="${MAX_NAME_LENGTH}"
              placeholder="e.g. ${client.name}"
            />
            <label for="assistant-role">Assistant's role (at most yours)</label>
            <select id="assistant-role" name="assistant_role">
              ${roles.map(
                (r) => html`<option value="${r}" ${r === 'viewer' ? html` selected` : ''}>${r}</option>`,
              )}
            </select>
          </fieldset>
          <button type="submit" name="decision" value="approve">Approve</button>
          <button type="submit" name="decision" value="deny" formaction="${INTERACTION}${uid}/deny">
            Deny
          </button>
        </form>
        <p class="note">
          You can revoke it any time: <code>recourse-board grants revoke &lt;grant id&gt;</code>.
        </p>`,
      { formActions: source === undefined ? [] : [source], status: problem === undefined ? 200 : 400 },
    );
  }

  /** The signed-in person of the interaction, or undefined after answering 403 (revoked or signed out). */
  async function approverOf(interaction: Details, res: ServerResponse): Promise<Member | undefined> {
    const approver = await accounts.activeMember(interaction.session?.accountId ?? '');
    if (approver !== undefined && isRole(approver.role)) return approver;
    sessions.end(res);
    sendProblem(
      res,
      403,
      'Not signed in',
      'Your member was revoked or signed out, so nothing was approved.',
      'Go back to the application and start the sign-in again.',
    );
    return undefined;
  }

  async function finishLogin(req: IncomingMessage, res: ServerResponse, member: Member) {
    sessions.start(res, member.id);
    setCookie(res, PENDING_COOKIE, '', { maxAge: 0, secure: deps.secure });
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId: member.id, remember: false } },
      {
        mergeWithLastSubmission: false,
      },
    );
  }

  async function showInteraction(req: IncomingMessage, res: ServerResponse) {
    const interaction = await details(req, res);
    if (interaction === undefined) return;
    const client = await clientLabel(param(interaction.params['client_id']));
    if (interaction.prompt.name === 'login') {
      const signedIn = sessions.memberOf(req);
      const member = signedIn === undefined ? undefined : await accounts.activeMember(signedIn);
      if (member !== undefined && member.kind === 'person') return finishLogin(req, res, member);
      return loginPage(req, res, interaction.uid, client.name);
    }
    const approver = await approverOf(interaction, res);
    if (approver !== undefined) consentPage(req, res, interaction, client, approver);
  }

  async function postLogin(req: IncomingMessage, res: ServerResponse, uid: string) {
    const fields = await checkForm(req, res, `login:${uid}`);
    if (fields === undefined) return;
    const interaction = await details(req, res);
    if (interaction === undefined) return;
    if (interaction.prompt.name !== 'login') return redirect(res, `${INTERACTION}${uid}`);
    const member = await accounts.signIn(fields.get('login') ?? '', fields.get('password') ?? '');
    if (member === undefined) {
      log.info({ uid }, 'page sign-in refused');
      const client = await clientLabel(param(interaction.params['client_id']));
      return loginPage(
        req,
        res,
        uid,
        client.name,
        'That member id or name and password do not match an active person with a password. Check both and try again; nothing was approved.',
      );
    }
    log.info({ member: member.id }, 'signed in on the consent page');
    return finishLogin(req, res, member);
  }

  async function postConfirm(req: IncomingMessage, res: ServerResponse, uid: string) {
    const fields = await checkForm(req, res, `consent:${uid}`);
    if (fields === undefined) return;
    const interaction = await details(req, res);
    if (interaction === undefined) return;
    if (interaction.prompt.name !== 'consent') return redirect(res, `${INTERACTION}${uid}`);
    const approver = await approverOf(interaction, res);
    if (approver === undefined || !isRole(approver.role)) return;
    const client = await clientLabel(param(interaction.params['client_id']));

    let acting: Member = approver;
    if (fields.get('act') === 'assistant') {
      const name = (fields.get('assistant_name') ?? '').trim();
      const role = fields.get('assistant_role') ?? '';
      const problem =
        name === '' || [...name].length > MAX_NAME_LENGTH
          ? `The assistant's name is ${name === '' ? 'empty' : `${[...name].length} characters long`}; give it a name of 1 to ${MAX_NAME_LENGTH} characters. Nothing was approved.`
          : !isRole(role) || !roleAtMost(role, approver.role)
            ? `The role "${role}" is not one you can give: choose one of ${ROLES.filter((r) => roleAtMost(r, approver.role)).join(', ')} (at most your own role, ${approver.role}). Nothing was approved.`
            : undefined;
      if (problem !== undefined) return consentPage(req, res, interaction, client, approver, problem);
      acting = await deps.members.add({ name, kind: 'assistant', role: role as Role });
      log.info(
        { member: acting.id, role, approvedBy: approver.id },
        'assistant member created on the consent page',
      );
    }

    const { Grant } = provider;
    const grant = new Grant({ accountId: approver.id, clientId: client.id });
    const promptDetails = interaction.prompt.details as {
      missingOIDCScope?: string[];
      missingResourceScopes?: Record<string, string[]>;
    };
    if (promptDetails.missingOIDCScope) grant.addOIDCScope(promptDetails.missingOIDCScope.join(' '));
    const granted: string[] = [];
    for (const [indicator, scopes] of Object.entries(promptDetails.missingResourceScopes ?? {})) {
      grant.addResourceScope(indicator, scopes.join(' '));
      granted.push(...scopes);
    }
    const grantId = await grant.save();
    await deps.store.insertGrant({
      grantId,
      memberId: acting.id,
      approvedBy: approver.id,
      clientId: client.id,
      clientName: client.name,
      scope: [...new Set(granted)].join(' '),
      createdAt: now().toISOString(),
      revokedAt: null,
    });
    log.info(
      { grant: grantId, member: acting.id, approvedBy: approver.id, client: client.id },
      'client approved',
    );
    await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
  }

  async function postDeny(req: IncomingMessage, res: ServerResponse, uid: string) {
    const fields = await checkForm(req, res, `consent:${uid}`);
    if (fields === undefined) return;
    const interaction = await details(req, res);
    if (interaction === undefined) return;
    log.info({ client: param(interaction.params['client_id']) }, 'client denied on the consent page');
    await provider.interactionFinished(
      req,
      res,
      { error: 'access_denied', error_description: 'The board member denied this application access.' },
      { mergeWithLastSubmission: false },
    );
  }

  const links = createSigninLinkPages({
    csrf,
    sessions,
    accounts,
    log,
    checkForm,
    afterSignin: (req) => {
      const pending = readCookies(req).get(PENDING_COOKIE);
      return pending !== undefined && /^[A-Za-z0-9_-]{1,64}$/.test(pending)
        ? `${INTERACTION}${pending}`
        : undefined;
    },
  });

  return {
    /** Serves the request when it is a page route (true), else false. */
    async handle(req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> {
      const method = req.method ?? 'GET';
      if (path === '/signin') {
        if (method === 'GET' || method === 'HEAD') links.page(req, res);
        else if (method === 'POST') await links.post(req, res);
        else sendProblem(res, 405, 'Method not allowed', `${method} is not allowed here; use GET or POST.`);
        return true;
      }
      if (!path.startsWith(INTERACTION)) return false;
      const [uid, action, ...rest] = path.slice(INTERACTION.length).split('/');
      if (uid === undefined || uid === '' || rest.length > 0) return false;
      if (action === undefined) {
        if (method !== 'GET' && method !== 'HEAD')
          sendProblem(res, 405, 'Method not allowed', `${method} is not allowed here; use GET.`);
        else await showInteraction(req, res);
        return true;
      }
      const post = { login: postLogin, confirm: postConfirm, deny: postDeny }[action];
      if (post === undefined) return false;
      if (method !== 'POST') {
        sendProblem(res, 405, 'Method not allowed', `${method} is not allowed here; send the page's form.`);
        return true;
      }
      await post(req, res, uid);
      return true;
    },
  };
}
