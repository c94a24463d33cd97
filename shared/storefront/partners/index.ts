/** What other capabilities call on partners (checkout): credit a referred sale in the sale's transaction. */
export { referralSaleOps } from './service';
