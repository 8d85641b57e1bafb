export { type SiteInfo, siteInfoSchema } from '../site.ts';
