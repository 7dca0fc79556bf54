/**
 * The `--help` texts of every command.
 *
 * @packageDocumentation
 */
import { operatorHelp } from './operator-settings.ts';
import { operationsHelp } from './operations-settings.ts';

const DATA_DIR =
  '  --data-dir DIR     data directory (default: $RECOURSE_DATA_DIR, else ./.data); unused when DATABASE_URL is set';

/** Help text per command path (`serve`, `members add`, …); `''` is the overview. */
export const HELP: Readonly<Record<string, string>> = {
  '': `recourse-board — a task board for people and AI assistants, served over MCP

Usage: recourse-board <command> [options]

Commands:
  serve                 serve the board over HTTP (MCP streamable HTTP)
  stdio                 serve the board over stdio for one member (token in RECOURSE_TOKEN)
  members add|role|revoke|list|password|signin-link   manage members and how people sign in
  tokens create|revoke|list      manage bearer tokens
  grants list|revoke             OAuth clients people approved on the consent page
  log                   show recent tool calls
  backup FILE           copy the SQLite board to FILE while it runs (restore: see backup --help)

Data lives in SQLite under --data-dir (default ./.data), or in PostgreSQL when DATABASE_URL is set.
A data directory that has held a board is never taken for a first start again: a missing, unreadable or
damaged database there stops the board with what it found and how to restore from a backup.
Run "recourse-board <command> --help" for a command's options.`,
  serve: `Usage: recourse-board serve [--host 127.0.0.1] [--port 3333] [--data-dir DIR] [--drain-timeout 15s]
                            [--metrics-token TOKEN] [--access-token-ttl 600] [limits] [--conformance]

Serves the board over HTTP at http://HOST:PORT/mcp and prints that URL, with its OAuth 2.1 authorization
server at the same origin (metadata at /.well-known/oauth-authorization-server, sign-in and consent pages under
/oauth/interaction/). Clients sign in there, or send a token from "recourse-board tokens create".
On first start it creates the data directory, the database and an owner member, and prints the owner's
token once. GET /healthz answers 200 while the process serves; GET /readyz answers 200 when the database
answers, its migrations are applied and the server is not draining, else 503.
Stop with Ctrl-C (SIGINT) or SIGTERM: the server drains (/readyz turns 503, new requests get 503 with
Retry-After, running calls may finish until the drain timeout, the rest are cancelled), then exits 0.

  --host HOST        address to bind (default 127.0.0.1)
  --port PORT        port to bind, 0 picks a free one (default 3333)
${operationsHelp()}
  --access-token-ttl SECONDS   lifetime of OAuth access tokens, 10 to 86400 (default 600); refresh tokens
                     rotate on every use and last 30 days
  --conformance      TEST ONLY: serve the MCP conformance suite's fixtures too, and let requests without a
                     token act as a read-only member; never beyond loopback
${DATA_DIR}

Limits (a flag wins over its environment variable; a bad value exits 2 naming the flag and the accepted range):
${operatorHelp('serve')}`,
  stdio: `Usage: RECOURSE_TOKEN=rbt_… recourse-board stdio [--data-dir DIR] [limits]

Serves the board over stdin/stdout (for desktop MCP clients) as the member whose token is in RECOURSE_TOKEN.
The token and its member are checked again on every tool call: once the token is revoked or expires, or the
member is revoked, calls are refused (CREDENTIAL_REFUSED); a role change applies from the next call.
With a missing, unknown, revoked or expired token it says so on stderr and still serves the protocol: every
tool call answers CREDENTIAL_REFUSED with the reason (exit code 1 when the session ends).
Nothing but MCP messages is written to stdout; logs go to stderr.

${DATA_DIR}

Limits (a flag wins over its environment variable; a bad value exits 2 naming the flag and the accepted range):
${operatorHelp('stdio')}`,
  members: `Usage: recourse-board members <add|role|revoke|list|password|signin-link> [options]

  add --name NAME --kind person|assistant --role owner|maintainer|contributor|viewer
  role MEMBER_ID ROLE
  revoke MEMBER_ID
  list
  password MEMBER_ID              (the password on standard input or in RECOURSE_PASSWORD)
  signin-link MEMBER_ID [--url http://127.0.0.1:3333] [--expires-in 10m]`,
  'members password': `Usage: recourse-board members password MEMBER_ID [--data-dir DIR] < password.txt

Sets a person's password for the board's sign-in page (at least 12 characters). The password is read from
RECOURSE_PASSWORD, else from the first line of standard input; never pass it as an argument. Only its scrypt
hash is stored. Assistants cannot have passwords: a person approves them on the consent page.

${DATA_DIR}`,
  'members signin-link': `Usage: recourse-board members signin-link MEMBER_ID [--url URL] [--expires-in 10m] [--data-dir DIR]

Prints a one-time sign-in link for a person. Opened in the browser that shows the board's sign-in page, it
signs them in and goes on to the consent page. It works once, until it expires; only its hash is stored.

  --url URL          the board's address as the browser reaches it (default http://127.0.0.1:3333)
  --expires-in DUR   lifetime like 10m or 1h (default 10m)
${DATA_DIR}`,
  'members add': `Usage: recourse-board members add --name NAME --kind person|assistant --role ROLE [--data-dir DIR]

Adds a member and prints their member id. Roles: owner, maintainer, contributor, viewer.

  --name NAME        display name, 1 to 100 characters
  --kind KIND        person or assistant
  --role ROLE        owner, maintainer, contributor or viewer
${DATA_DIR}`,
  'members role': `Usage: recourse-board members role MEMBER_ID ROLE [--data-dir DIR]

Changes a member's role (owner, maintainer, contributor, viewer). The last owner keeps the owner role.

${DATA_DIR}`,
  'members revoke': `Usage: recourse-board members revoke MEMBER_ID [--data-dir DIR]

Revokes a member: their tokens stop working at once, and so do the OAuth grants they act through or approved
(their access tokens are refused, their refresh tokens deleted). The last owner cannot be revoked.

${DATA_DIR}`,
  'members list': `Usage: recourse-board members list [--data-dir DIR]

Lists members: id, name, kind, role, created, revoked.

${DATA_DIR}`,
  tokens: `Usage: recourse-board tokens <create|revoke|list> [options]

  create --member MEMBER_ID [--expires-in 30d]
  revoke TOKEN_ID|PREFIX
  list`,
  'tokens create': `Usage: recourse-board tokens create --member MEMBER_ID [--expires-in 30d] [--data-dir DIR]

Creates a bearer token for a member and prints it once on stdout; only its hash is stored.
Send it as "Authorization: Bearer <token>" over HTTP, or set RECOURSE_TOKEN for "recourse-board stdio".

  --member ID        the member the token acts as
  --expires-in DUR   lifetime like 30d, 12h, 45m or 90s (default: no expiry)
${DATA_DIR}`,
  'tokens revoke': `Usage: recourse-board tokens revoke TOKEN_ID|PREFIX [--data-dir DIR]

Revokes one token by its id (tok_…), by the whole token, or by a unique prefix of at least 6 characters
(rbt_Ab3…); only a token's first 12 characters are stored, so a longer prefix is matched on those.

${DATA_DIR}`,
  'tokens list': `Usage: recourse-board tokens list [--data-dir DIR]

Lists tokens: id, prefix, member, created, expires, revoked. Tokens themselves are never shown again.

${DATA_DIR}`,
  grants: `Usage: recourse-board grants <list|revoke> [options]

  list
  revoke GRANT_ID`,
  'grants list': `Usage: recourse-board grants list [--data-dir DIR]

Lists the OAuth grants people approved: grant id, client name, client id, the member it acts as, who approved
it, the scopes granted, created, revoked.

${DATA_DIR}`,
  'grants revoke': `Usage: recourse-board grants revoke GRANT_ID [--data-dir DIR]

Revokes a grant: its access tokens are refused from their next use (HTTP 401) and its refresh tokens no longer
work, so the client must sign in again.

${DATA_DIR}`,
  backup: `Usage: recourse-board backup FILE [--data-dir DIR]

Copies the SQLite board to FILE with SQLite's online backup: the board may keep serving meanwhile, and the copy
is one consistent moment of it. The copy is checked (quick_check) before it gets its name; an existing FILE is
never overwritten. A damaged database is reported instead of copied.

Restore from FILE:
  1. stop the board (Ctrl-C or SIGTERM);
  2. move the data directory aside (keep it until the restored board works): mv .data .data.broken
  3. create it again and copy the backup in as board.sqlite: mkdir .data && cp FILE .data/board.sqlite
  4. start the board; it checks the restored database before serving.

PostgreSQL (DATABASE_URL): back up with pg_dump --format=custom --file FILE "$DATABASE_URL" and restore with
pg_restore --clean --dbname "$DATABASE_URL" FILE while no instance runs.

${DATA_DIR}`,
  log: `Usage: recourse-board log [--limit 50] [--member MEMBER_ID] [--tool TOOL] [--data-dir DIR]

Shows recent tool calls, newest first: time, member, tool, outcome (ok or failure category), failure code,
duration and correlation id. Argument values are never recorded.

  --limit N          how many calls, 1 to 10000 (default 50)
  --member ID        only calls by this member
  --tool NAME        only calls of this tool
${DATA_DIR}`,
};
