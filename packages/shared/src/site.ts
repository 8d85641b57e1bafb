import { z } from 'zod';

/**
 * GET /api/v1/site/: who operates this installation, for the landing page and the privacy policy and terms
 * (개인정보 보호법 제30조 requires the policy to name the controller and how to reach its officer).
 */
export const siteInfoSchema = z.object({
  operator_name: z.string(),
  operator_contact: z.string(),
});
export type SiteInfo = z.infer<typeof siteInfoSchema>;
