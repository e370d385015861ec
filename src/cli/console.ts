import { parseConfig } from '../config.ts';
import { resolveConsoleToken } from '../services.ts';

const USAGE = `Usage: npm run console -- <command>

  account:create <name> [companyAddress]     create an account
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

async function call(method: string, path: string, body?: unknown): Promise<void> {
  const res = await fetch(`${config.http.publicBaseUrl}/console/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  console.log(`${res.status} ${text ? JSON.stringify(JSON.parse(text), null, 2) : ''}`);
  if (!res.ok) process.exitCode = 1;
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
    await call(args[0]!.toUpperCase(), args[1]!, args[2] === undefined ? undefined : JSON.parse(args[2]));
    break;
  default:
    console.error(USAGE);
    process.exit(command ? 2 : 0);
}
