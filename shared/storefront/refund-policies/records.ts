/** Refund policies as stored; catalog products point to them by id. */
export const REFUND_POLICY = 'REFUND_POLICY';

export interface RefundPolicyRecord {
  _id: string;
  name: string;
  days: number;
  description: string;
  testMode: boolean;
  createdAt: string;
  updatedAt: string;
}
