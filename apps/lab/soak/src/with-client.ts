// One short-lived connection for each of the soak's own queries. The soak
// restarts PostgreSQL under itself, so a connection may be refused (the
// server is down or recovering: it is tried again for a minute) or dropped
// while open (an 'error' listener keeps that from crashing the soak; the
// query in flight rejects and its caller reports it).
import pg from 'pg';

const CONNECT_FOR_MS = 60_000;

export async function connectClient(url: string): Promise<pg.Client> {
  const deadline = Date.now() + CONNECT_FOR_MS;
  for (;;) {
    const client = new pg.Client({ connectionString: url, application_name: 'soak' });
    client.on('error', () => undefined);
    try {
      await client.connect();
      return client;
    } catch (error) {
      await client.end().catch(() => undefined);
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

export async function withClient<T>(
  url: string,
  work: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const client = await connectClient(url);
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}
