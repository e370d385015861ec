import { parseConfig } from '../config.ts';
import { resolveConsoleToken } from '../services.ts';

const USAGE = `Usage: npm run console -- <command>

  account:create <name> [companyAddress]     create an account
  account:list [cursor]                      the accounts, 50 a page (nextCursor pages on)
  account:get <accountId>
  account:address <accountId> <address>     choose the company address
  account:dpa <accountId>                    record that an admin accepted the addendum
  key:mint <accountId> <scope,scope…> [name] mint an API key (the secret is shown once)
  key:list <accountId>
  key:revoke <accountId> <keyId>
  call <METHOD> <path under /console/v1> [json body]
  user:invite <accountId> <email> <role>     invite a console user (admin, recruiter, billing_admin);
                                             prints the single-use link to /console/invite/…

Talks to the service at PUBLIC_BASE_URL (default http://localhost:$PORT) with the console token
(CONSOLE_TOKEN, or the one generated in DATA_DIR/console-token).`;

const config = parseConfig(process.env);
const { token } = resolveConsoleToken(config);
const [command, ...args] = process.argv.slice(2);

/** One line on what went wrong talking to the service, never a stack trace. */
function unreachable(error: unknown, base: string): string {
  const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
  const why =
    cause === 'ECONNREFUSED'
      ? 'nothing is listening there'
      : cause === 'ENOTFOUND'
        ? 'that host name does not resolve'
        : String(cause);
  return `error: cannot reach the service at ${base} (${why}). Is it running? Set PUBLIC_BASE_URL (or PORT) to where it listens.`;
}

async function call(method: string, path: string, body?: unknown): Promise<void> {
  const base = config.http.publicBaseUrl;
  let res: Response;
  try {
    res = await fetch(`${base}/console/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    fail(unreachable(error, base));
  }
  const text = await res.text();
  let shown = text;
  try {
    shown = text ? JSON.stringify(JSON.parse(text), null, 2) : '';
  } catch {
    // Not JSON (a proxy's error page, another program on the port): shown as it came.
  }
  console.log(`${res.status} ${shown}`);
  if (!res.ok) process.exitCode = 1;
}

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

function jsonArgument(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    return fail(`error: the body is not JSON: ${(error as Error).message}`);
  }
}

const need = (n: number) => {
  if (args.length < n) {
    console.error(USAGE);
    process.exit(2);
  }
};

switch (command) {
  case 'account:create':
    need(1);
    await call('POST', '/accounts', { name: args[0], ...(args[1] ? { companyAddress: args[1] } : {}) });
    break;
  case 'account:list':
    await call('GET', `/accounts${args[0] ? `?cursor=${encodeURIComponent(args[0])}` : ''}`);
    break;
  case 'account:get':
    need(1);
    await call('GET', `/accounts/${args[0]}`);
    break;
  case 'account:address':
    need(2);
    await call('PATCH', `/accounts/${args[0]}`, { companyAddress: args[1] });
    break;
  case 'account:dpa':
    need(1);
    await call('PATCH', `/accounts/${args[0]}`, { dpaAccepted: true });
    break;
  case 'key:mint':
    need(2);
    await call('POST', `/accounts/${args[0]}/keys`, {
      scopes: args[1]!.split(','),
      ...(args[2] ? { name: args[2] } : {}),
    });
    break;
  case 'key:list':
    need(1);
    await call('GET', `/accounts/${args[0]}/keys`);
    break;
  case 'key:revoke':
    need(2);
    await call('DELETE', `/accounts/${args[0]}/keys/${args[1]}`);
    break;
  case 'user:invite':
    need(3);
    await call('POST', `/accounts/${args[0]}/users`, { email: args[1], role: args[2] });
    break;
  case 'call':
    need(2);
    await call(args[0]!.toUpperCase(), args[1]!, args[2] === undefined ? undefined : jsonArgument(args[2]));
    break;
  default:
    console.error(USAGE);
    process.exit(command ? 2 : 0);
}
