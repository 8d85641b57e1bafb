import { z } from 'zod';

/** GET /api/health and /api/ready: `ok`, `ready`, or (503) why not. */
export const healthStatusSchema = z.object({ status: z.string() });
