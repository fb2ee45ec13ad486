// postgres_query for a server of your own: the built-in one signs in to 127.0.0.1:5432 as lift.
import { postgresTools } from 'lift';

export const tools = postgresTools({
  host: process.env.PGHOST ?? '127.0.0.1',
  port: Number(process.env.PGPORT ?? 5432),
  user: 'lift',
  database: 'postgres',
  passwordSecret: 'postgres_password',
});
