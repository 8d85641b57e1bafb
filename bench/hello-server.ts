// The ceiling: a bare Fastify hello-world on the same machine, measured in the same run as the API.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
